import { type SqlDatabase, notify } from './sql.ts';

export const APPENDED_CHANNEL = 'es_appended';

/**
 * Wakes the log's readers (NOTIFY) after appends commit, at most one NOTIFY in flight: appends
 * that commit meanwhile are told in the next one. Sent after the commit, not inside the append's
 * transaction: PostgreSQL serialises the commits of transactions that notify (one global lock held
 * through the commit's flush), which would undo group commit. A lost NOTIFY (a crash right after
 * the commit) costs a reader one poll interval, never an event: readers poll as well.
 */
export function createAppendNotifier(db: SqlDatabase) {
  let sending = false;
  let pending = 0;
  const send = async () => {
    sending = true;
    while (pending > 0) {
      const position = pending;
      pending = 0;
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
