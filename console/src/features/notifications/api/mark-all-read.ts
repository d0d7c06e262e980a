import type { Done } from '@portal/contracts/answers';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';
import { notificationsKey } from './get-notifications.ts';

/** POST /api/notifications/read-all: every notification shown until now is read. */
export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<z.infer<typeof Done>>('/api/notifications/read-all', { method: 'POST', body: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationsKey }),
  });
}
