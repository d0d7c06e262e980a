import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AssistingAnswer } from '@portal/contracts/views/assistants';
import { api } from '../../../lib/api-client.ts';

/** GET /api/assisting: the rounds the signed-in member or partner may scan in as an assistant; checked every minute. */
export const useAssisting = () =>
  useQuery({
    queryKey: ['assisting'],
    queryFn: () => api<z.infer<typeof AssistingAnswer>>('/api/assisting'),
    refetchInterval: 60_000,
  });
