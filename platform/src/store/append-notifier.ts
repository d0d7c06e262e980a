import { type SqlDatabase, notify } from './sql.ts';

export const APPENDED_CHANNEL = 'es_appended';

/**
 * The least time between two NOTIFYs of appends on PostgreSQL, in ms: the live projector gathers
 * the appends of as long after a wake-up into one batch (projector.ts), so those told sooner would
 * wake nobody sooner. 10 ms rather than 5: on machine AK a scan cost 4 to 14% less CPU in all
 * (interleaved pairs at 4 and at 16 scanners, and through Kafka), the rate at 16 scanners rose by
 * a tenth, and the read models showed a scan 5 to 9 ms later at p99 (docs/performance.md).
 * PGlite's notifications are calls in this process: none waits.
 */
export const NOTIFY_EVERY_MS = { postgres: 10, pglite: 0 } as const;

/**
 * Wakes the log's readers (NOTIFY) after appends commit: the first append after a quiet spell at
 * once, then at most one NOTIFY every `everyMs` while appends go on, the last telling of all that
 * committed meanwhile; never two in flight. On PostgreSQL a NOTIFY is a statement, and a listener
 * woken: one for every group commit cost a scan a tenth of its CPU (docs/performance.md, V).
 * Sent after the commit, not inside the append's transaction: PostgreSQL serialises the commits
 * of transactions that notify (one global lock held through the commit's flush), which would undo
 * group commit. A lost NOTIFY (a crash right after the commit) costs a reader one poll interval,
 * never an event: readers poll as well.
 */
export function createAppendNotifier(db: SqlDatabase, everyMs: number = NOTIFY_EVERY_MS[db.kind]) {
  let sending = false;
  let pending = 0;
  let lastSent = -Infinity;
  const untilDue = () => lastSent + everyMs - performance.now();
  const send = async () => {
    sending = true;
    while (pending > 0) {
      // A timer may fire up to a millisecond early (the loop's clock is read once a turn): looked at again.
      while (untilDue() > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(untilDue())));
      const position = pending;
      pending = 0;
      lastSent = performance.now();
      try {
        await notify(db, APPENDED_CHANNEL, String(position));
      } catch {
        // The database is away; readers find the events when they poll or reconnect.
      }
    }
    sending = false;
  };
  const position = (at: number) => {
    pending = Math.max(pending, at);
    if (!sending) void send();
  };
  return {
    position,
    /** Passes an append's result through, notifying of it. */
    after<T extends { position: number; replayed?: boolean }>(result: T): T {
      if (!result.replayed) position(result.position);
      return result;
    },
  };
}
