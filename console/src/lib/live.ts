import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notePosition } from './api-client.ts';

/**
 * Keeps a course's pages current: the query API's server-sent events say when the course, its
 * rounds or their attendance changed (a scan on another device), and the given queries reload,
 * waiting for that position. After a lost connection (the network, or the portal restarted) it
 * connects again, also when the browser gave up or comes back online, and reloads the queries
 * once connected, as changes made meanwhile were never announced to it.
 */
export function useLiveCourse(courseId: string | undefined, keys: readonly (readonly unknown[])[]) {
  const client = useQueryClient();
  const serialised = JSON.stringify(keys);
  useEffect(() => {
    if (!courseId || typeof EventSource === 'undefined') return;
    const reload = () => {
      for (const key of JSON.parse(serialised) as unknown[][]) void client.invalidateQueries({ queryKey: key });
    };
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let connectedBefore = false;
    const connect = () => {
      clearTimeout(retry);
      source?.close();
      const current = new EventSource(`/api/live/courses/${courseId}`);
      source = current;
      current.addEventListener('open', () => {
        if (connectedBefore) reload();
        connectedBefore = true;
      });
      current.addEventListener('changed', (event) => {
        try {
          notePosition((JSON.parse((event as MessageEvent<string>).data) as { position?: number }).position);
        } catch {
          // a malformed message still means "something changed"
        }
        reload();
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
  }, [courseId, serialised, client]);
}

const RETRY_MS = 3000;
