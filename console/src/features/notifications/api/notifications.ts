import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NotificationList } from '@portal/query-api/contracts/notifications';
import { api } from '../../../lib/api-client.ts';
import { useLiveEvents } from '../../../lib/live.ts';

export type Filter = 'all' | 'unread' | 'system' | 'course';
type ListAnswer = z.infer<typeof NotificationList>;

/** Rounds about to start appear with time, not with an event: lists are also asked again each minute. */
const EVERY_MINUTE = 60_000;

export const useNotifications = (filter: Filter, page: number) =>
  useQuery({
    queryKey: ['notifications', filter, page],
    queryFn: () => api<ListAnswer>(`/api/notifications?filter=${filter}&page=${page}`),
    refetchInterval: EVERY_MINUTE,
  });

/** The header badge: how many are unread. */
export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: ['notifications', 'badge'],
    queryFn: () => api<ListAnswer>('/api/notifications?filter=unread&pageSize=1'),
    select: (answer) => answer.counts.unread,
    enabled,
    refetchInterval: EVERY_MINUTE,
  });

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['notifications'] });
}

export function useMarkRead() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (ids: string[]) => api('/api/notifications/read', { method: 'POST', body: { ids } }),
    onSuccess: invalidate,
  });
}

export function useMarkAllRead() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => api('/api/notifications/read-all', { method: 'POST', body: {} }),
    onSuccess: invalidate,
  });
}

/** Recounts whenever the read models change (the query API says so, at most once a second). */
export function useLiveNotifications(enabled: boolean) {
  const invalidate = useInvalidate();
  useLiveEvents(enabled ? '/api/live/notifications' : null, () => void invalidate());
}
