import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { notePosition } from './api-client.ts';

/**
 * Keeps a course's pages current: the query API's server-sent events say when the course, its
 * rounds or their attendance changed (a scan on another device), and the given queries reload,
 * waiting for that position. EventSource reconnects by itself.
 */
export function useLiveCourse(courseId: string | undefined, keys: readonly (readonly unknown[])[]) {
  const client = useQueryClient();
  const serialised = JSON.stringify(keys);
  useEffect(() => {
    if (!courseId || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/live/courses/${courseId}`);
    source.addEventListener('changed', (event) => {
      try {
        notePosition((JSON.parse((event as MessageEvent<string>).data) as { position?: number }).position);
      } catch {
        // a malformed message still means "something changed"
      }
      for (const key of JSON.parse(serialised) as unknown[][]) void client.invalidateQueries({ queryKey: key });
    });
    return () => source.close();
  }, [courseId, serialised, client]);
}
