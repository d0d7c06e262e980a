import type { Registered } from '@portal/contracts/answers';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MemberRegistration } from '@portal/contracts/rules/registration';
import { api } from '../../../lib/api-client.ts';

/** POST /api/admin/members: an admin creates a member account, approved from the start (/addemployee). */
export const useCreateMember = () =>
  useMutation({
    mutationFn: (body: z.output<typeof MemberRegistration>) =>
      api<z.infer<typeof Registered>>('/api/admin/members', { method: 'POST', body }),
  });
