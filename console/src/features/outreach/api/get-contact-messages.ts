import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ContactMessages } from '@portal/contracts/views/outreach';
import { api } from '../../../lib/api-client.ts';

/** GET /api/admin/contact-messages: the inbox, newest first. */
export const useContactMessages = (page: number) =>
  useQuery({
    queryKey: ['contact-messages', page],
    queryFn: () => api<z.infer<typeof ContactMessages>>(`/api/admin/contact-messages?page=${page}`),
  });
