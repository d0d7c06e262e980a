import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PassAnswer } from '@portal/contracts/views/round';
import { api } from '../../../lib/api-client.ts';

/** GET /api/members/me/pass: the member's pass, fetched again just after the code turns (about every 30 seconds). */
export const useMyPass = () =>
  useQuery({
    queryKey: ['pass'],
    queryFn: () => api<z.infer<typeof PassAnswer>>('/api/members/me/pass'),
    refetchInterval: (query) => {
      const expiresAt = query.state.data?.expiresAt;
      return expiresAt ? Math.max(1000, Date.parse(expiresAt) - Date.now() + 500) : 30_000;
    },
    refetchIntervalInBackground: true,
  });
