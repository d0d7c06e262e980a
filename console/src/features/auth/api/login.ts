import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer } from '@portal/contracts/accounts/login.contract';
import { api } from '../../../lib/api-client.ts';

export const login = (body: { username: string; password: string }) =>
  api<LoginAnswer>('/api/login', { method: 'POST', body });

export const useLogin = () => useMutation({ mutationFn: login });
