import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Emails } from '@portal/contracts/views/outreach';
import { api } from '../../../lib/api-client.ts';

/** GET /api/admin/emails: the outbox, newest first. */
export const useEmails = (page: number) =>
  useQuery({
    queryKey: ['emails', page],
    queryFn: () => api<z.infer<typeof Emails>>(`/api/admin/emails?page=${page}`),
  });
