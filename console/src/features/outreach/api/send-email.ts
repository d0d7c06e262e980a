import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MessageSent } from '@portal/contracts/answers';
import type { EmailForm } from '@portal/contracts/rules/outreach';
import { api } from '../../../lib/api-client.ts';

/** POST /api/emails: an e-mail from staff, through SMTP or kept in the outbox. */
export const useSendEmail = () =>
  useMutation({
    mutationFn: (body: z.output<typeof EmailForm>) =>
      api<z.infer<typeof MessageSent>>('/api/emails', { method: 'POST', body }),
  });
