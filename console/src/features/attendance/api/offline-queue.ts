import { createStore, del, entries, set } from 'idb-keyval';
import { NetworkError } from '../../../lib/api-client.ts';
import { type ScanAnswer, type ScanBody, sendScan } from './rounds.ts';

/** A scan made while the connection was down: kept in IndexedDB with its device time and key. */
export interface QueuedScan {
  key: string;
  roundId: string;
  body: ScanBody;
}

const store = createStore('course-portal-scans', 'queue');

export const queueScan = (scan: QueuedScan) => set(scan.key, scan, store);

export async function queuedScans(): Promise<QueuedScan[]> {
  return (await entries<string, QueuedScan>(store)).map(([, scan]) => scan);
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
      onAnswer(scan, null);
    }
    await del(scan.key, store);
    sent += 1;
  }
  return sent;
}
