import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { OfflineDecision } from '@portal/contracts/attendance/attendance.events';
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

export interface ScanBody {
  userId: string;
  method: ScanMethod;
  deviceId: string;
  deviceTime: string;
  /** For a scan queued offline: what the device decided alone (the audit shows it beside the server's answer). */
  offlineDecision?: OfflineDecision;
}

/** What the scan call answers, accepted or refused (spec 001 section 7 plus issue 5's outcome). */
export interface ScanAnswer {
  success: boolean;
  message: string;
  outcome: 'accepted' | 'refused';
  reason?: string;
  member: { _id: string; fullName: string | null } | null;
  scannedAt?: string;
  firstScannedAt?: string | null;
  late?: boolean;
  walkIn?: boolean;
  position: number;
}

/** One attempt; the idempotency key makes a replay of a queued scan count once. */
export const sendScan = (roundId: string, body: ScanBody, key: string) =>
  api<ScanAnswer>(`/api/admin/updateround/${roundId}`, {
    method: 'PUT',
    body,
    headers: { 'idempotency-key': key },
  });
