import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageSent } from '@portal/contracts/answers';
import type { ContactForm } from '@portal/contracts/rules/outreach';
import { api } from '../../../lib/api-client.ts';

/** POST /api/contact: a message to the provider, from anyone. */
export const useSendContact = () =>
  useMutation({
    mutationFn: (body: z.output<typeof ContactForm>) =>
      api<z.infer<typeof MessageSent>>('/api/contact', { method: 'POST', body }),
  });
