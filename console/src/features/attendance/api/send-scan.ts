import type { ScanAnswer } from '@portal/contracts/answers';
import type { ScanRequest } from '@portal/contracts/rules/attendance';
import type { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

export type ScanMethod = 'camera' | 'typed' | 'barcode';

/** What the scanner sends (the server's own request schema), always with the device's time. */
export type ScanBody = z.output<typeof ScanRequest> & { deviceTime: string };

/** What the scan call answers, accepted or refused (spec 001 section 7 plus issue 5's outcome). */
export type { ScanAnswer };

/**
 * PUT /api/admin/updateround/{roundId}: one attempt (a scan that cannot be sent is decided on the
 * device and queued at once, not after waiting for resends); the idempotency key makes a replay
 * of a queued scan count once.
 */
export const sendScan = (roundId: string, body: ScanBody, key: string) =>
  api<ScanAnswer>(`/api/admin/updateround/${roundId}`, {
    method: 'PUT',
    body,
    headers: { 'idempotency-key': key },
    once: true,
  });
