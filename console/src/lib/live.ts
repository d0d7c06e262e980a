import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { notePosition } from './api-client.ts';

/**
 * Follows one of the query API's server-sent event streams and calls `onChange` for each
 * "changed" (noting its position, so the reload waits for it) and once more after every
 * reconnection, as changes made while the connection was lost were never announced. It connects
 * again after a lost connection (the network, or the portal restarted), also when the browser
 * gave up, and when the browser comes back online. `url` null: nothing to follow.
 */
export function useLiveEvents(url: string | null, onChange: () => void) {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);
  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let connectedBefore = false;
    const connect = () => {
      clearTimeout(retry);
      source?.close();
      const current = new EventSource(url);
      source = current;
      current.addEventListener('open', () => {
        if (connectedBefore) latest.current();
        connectedBefore = true;
      });
      current.addEventListener('changed', (event) => {
        try {
          notePosition((JSON.parse((event as MessageEvent<string>).data) as { position?: number }).position);
        } catch {
          // a malformed message still means "something changed"
        }
        latest.current();
      });
      // The browser retries by itself, but gives up for good on some failures: then we do.
      current.addEventListener('error', () => {
        if (current.readyState === EventSource.CLOSED) retry = setTimeout(connect, RETRY_MS);
      });
    };
    const online = () => {
      if (source?.readyState !== EventSource.OPEN) connect();
    };
    connect();
    window.addEventListener('online', online);
    return () => {
      clearTimeout(retry);
      window.removeEventListener('online', online);
      source?.close();
    };
  }, [url]);
}

const RETRY_MS = 3000;

/**
 * Keeps a course's pages current: the course's events say when it, its rounds or their
 * attendance changed (a scan on another device), and the given queries reload.
 */
export function useLiveCourse(courseId: string | undefined, keys: readonly (readonly unknown[])[]) {
  const client = useQueryClient();
  const serialised = JSON.stringify(keys);
  const reload = useCallback(() => {
    for (const key of JSON.parse(serialised) as unknown[][]) void client.invalidateQueries({ queryKey: key });
  }, [client, serialised]);
  useLiveEvents(courseId ? `/api/live/courses/${courseId}` : null, reload);
}
