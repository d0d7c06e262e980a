import type { Done } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { notificationsKey } from './get-notifications.ts';

/** POST /api/notifications/read: these notifications are read. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      api<z.infer<typeof Done>>('/api/notifications/read', { method: 'POST', body: { ids } }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationsKey }),
  });
}
