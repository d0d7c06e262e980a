import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ContactForm, EmailForm } from '@portal/contracts/rules/outreach';
import type { ContactMessages, Emails } from '@portal/query-api/contracts/outreach';
import { api } from '../../../lib/api-client.ts';

interface Sent {
  success: true;
  message: string;
  _id: string;
  transport?: 'smtp' | 'outbox';
}

export const useSendContact = () =>
  useMutation({
    mutationFn: (body: z.output<typeof ContactForm>) => api<Sent>('/api/contact', { method: 'POST', body }),
  });

export const useSendEmail = () =>
  useMutation({
    mutationFn: (body: z.output<typeof EmailForm>) => api<Sent>('/api/emails', { method: 'POST', body }),
  });

export const useContactMessages = (page: number) =>
  useQuery({
    queryKey: ['contact-messages', page],
    queryFn: () => api<z.infer<typeof ContactMessages>>(`/api/admin/contact-messages?page=${page}`),
  });

export const useEmails = (page: number) =>
  useQuery({
    queryKey: ['emails', page],
    queryFn: () => api<z.infer<typeof Emails>>(`/api/admin/emails?page=${page}`),
  });
