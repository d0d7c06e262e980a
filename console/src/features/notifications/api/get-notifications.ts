import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NotificationList } from '@portal/contracts/views/notifications';
import { api } from '../../../lib/api-client.ts';

export type Filter = 'all' | 'unread' | 'system' | 'course';
type ListAnswer = z.infer<typeof NotificationList>;

/** Every cached list and count of notifications (reading or a live change reloads them). */
export const notificationsKey = ['notifications'] as const;

/** Rounds about to start appear with time, not with an event: lists are also asked again each minute. */
const EVERY_MINUTE = 60_000;

/** GET /api/notifications: one tab's page. */
export const useNotifications = (filter: Filter, page: number) =>
  useQuery({
    queryKey: [...notificationsKey, filter, page],
    queryFn: () => api<ListAnswer>(`/api/notifications?filter=${filter}&page=${page}`),
    refetchInterval: EVERY_MINUTE,
  });

/** The header badge: how many are unread (the same call, one row). */
export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: [...notificationsKey, 'badge'],
    queryFn: () => api<ListAnswer>('/api/notifications?filter=unread&pageSize=1'),
    select: (answer) => answer.counts.unread,
    enabled,
    refetchInterval: EVERY_MINUTE,
  });
