import type { Done } from '@portal/contracts/answers';
import type { PasswordSetByLink } from '@portal/contracts/rules/profile';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

/** POST /api/password/set: a new password from an e-mailed link (no session). */
export const useSetPassword = () =>
  useMutation({
    mutationFn: (body: PasswordSetByLink) => api<z.infer<typeof Done>>('/api/password/set', { method: 'POST', body }),
  });
