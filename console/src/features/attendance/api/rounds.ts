import type { ScanAnswer } from '@portal/contracts/answers';
import type { ScanRequest } from '@portal/contracts/rules/attendance';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PassAnswer, RoundDetails } from '@portal/query-api/contracts/round';
import { api } from '../../../lib/api-client.ts';

export type Round = RoundDetails['round'];
export const roundKey = (roundId: string) => ['rounds', roundId] as const;

export const useRound = (roundId: string) =>
  useQuery({
    queryKey: roundKey(roundId),
    queryFn: () => api<RoundDetails>(`/api/admin/rounds/${roundId}`),
    retry: false,
  });

/** The member's pass: fetched again just after the code turns (about every 30 seconds). */
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

export type ScanMethod = 'camera' | 'typed' | 'barcode';

/** What the scanner sends (the server's own request schema), always with the device's time. */
export type ScanBody = z.output<typeof ScanRequest> & { deviceTime: string };

/** What the scan call answers, accepted or refused (spec 001 section 7 plus issue 5's outcome). */
export type { ScanAnswer };

/** One attempt; the idempotency key makes a replay of a queued scan count once. */
export const sendScan = (roundId: string, body: ScanBody, key: string) =>
  api<ScanAnswer>(`/api/admin/updateround/${roundId}`, {
    method: 'PUT',
    body,
    headers: { 'idempotency-key': key },
  });
