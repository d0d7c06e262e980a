import type { Registered } from '@portal/contracts/answers';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MemberSelfRegistration } from '@portal/contracts/rules/registration';
import { api } from '../../../lib/api-client.ts';

/** POST /api/members/register: a member's own registration, pending approval. */
export const useRegisterMember = () =>
  useMutation({
    mutationFn: (body: z.output<typeof MemberSelfRegistration>) =>
      api<z.infer<typeof Registered>>('/api/members/register', { method: 'POST', body }),
  });
