import { useQuery } from '@tanstack/react-query';
import type { RoundDetails } from '@portal/contracts/views/round';
import { api } from '../../../lib/api-client.ts';

export type Round = RoundDetails['round'];
export const roundKey = (roundId: string) => ['rounds', roundId] as const;

/** GET /api/admin/rounds/{roundId}: the round page's round, roster and counts. */
export const useRound = (roundId: string) =>
  useQuery({
    queryKey: roundKey(roundId),
    queryFn: () => api<RoundDetails>(`/api/admin/rounds/${roundId}`),
    retry: false,
  });
