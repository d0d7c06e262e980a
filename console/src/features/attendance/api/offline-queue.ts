import { createStore, del, entries, set } from 'idb-keyval';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import type { OfflineVerdict } from '../offline/decide-offline.ts';
import { type ScanAnswer, type ScanBody, sendScan } from './send-scan.ts';

/**
 * A scan made while the connection was down: kept in IndexedDB with its device time, its key and
 * what the device decided alone, which the server's answer is compared with when it is sent.
 */
export interface QueuedScan {
  key: string;
  roundId: string;
  body: ScanBody;
  verdict?: OfflineVerdict;
}

const store = createStore('course-portal-scans', 'queue');

export const queueScan = (scan: QueuedScan) => set(scan.key, scan, store);

export async function queuedScans(): Promise<QueuedScan[]> {
  return (await entries<string, QueuedScan>(store)).map(([, scan]) => scan);
}

/** Who this device let in for a round while offline and has not sent yet, with when. */
export async function admittedOffline(roundId: string): Promise<Map<string, string>> {
  const admitted = new Map<string, string>();
  for (const scan of await queuedScans()) {
    const { verdict } = scan;
    if (scan.roundId !== roundId || !verdict?.memberId) continue;
    if (verdict.decision === 'accepted' || verdict.decision === 'walkInRequested') {
      admitted.set(verdict.memberId, scan.body.deviceTime);
    }
  }
  return admitted;
}

/**
 * Sends the queued scans in the order they were made. Each keeps its idempotency key, so a scan
 * that reached the server before the connection dropped is answered, not counted, again. Stops at
 * the first network failure (still offline); any answer, accepted or refused, takes it off.
 */
export async function replayQueue(onAnswer: (scan: QueuedScan, answer: ScanAnswer | null) => void): Promise<number> {
  const scans = (await queuedScans()).sort((a, b) => a.body.deviceTime.localeCompare(b.body.deviceTime));
  let sent = 0;
  for (const scan of scans) {
    try {
      onAnswer(scan, await sendScan(scan.roundId, scan.body, scan.key));
    } catch (error) {
      if (error instanceof NetworkError) break;
      // A refusal is an answer too (409, or 404 for nobody known); anything else is not one.
      const refused = error instanceof ApiError && error.body.outcome ? (error.body as unknown as ScanAnswer) : null;
      onAnswer(scan, refused);
    }
    await del(scan.key, store);
    sent += 1;
  }
  return sent;
}
