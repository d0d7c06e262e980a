import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../../lib/live.ts';
import { notificationsKey } from './get-notifications.ts';

/** GET /api/live/notifications: recounts whenever the read models change (at most once a second). */
export function useLiveNotifications(enabled: boolean) {
  const client = useQueryClient();
  useLiveEvents(enabled ? '/api/live/notifications' : null, () => {
    void client.invalidateQueries({ queryKey: notificationsKey });
  });
}
