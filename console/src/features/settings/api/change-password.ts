import type { PasswordChanged } from '@portal/contracts/answers';
import type { PasswordChange } from '@portal/contracts/rules/profile';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** PUT /api/members/change-password/{id}: every other session ends; this one carries on in a new one. */
export const useChangePassword = (id: string) =>
  useMutation({
    mutationFn: (body: z.output<typeof PasswordChange>) =>
      api<z.infer<typeof PasswordChanged>>(`/api/members/change-password/${id}`, { method: 'PUT', body }),
  });
