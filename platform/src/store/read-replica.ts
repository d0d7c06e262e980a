import { type SqlDatabase, isDatabaseUnavailable } from './sql.ts';

/**
 * The query side on a PostgreSQL streaming replica: every query and read-only transaction goes to
 * the replica, while LISTEN goes to the primary (a standby cannot LISTEN, and the projector's
 * NOTIFYs are sent there). A wake-up can therefore come before the replica shows the change;
 * read-your-writes compares the replica's own checkpoint, so it waits on (see query-api's
 * read-your-writes.ts). While the replica cannot be reached (restarting, failing over), reads go
 * to the primary, whose read models are as new or newer: a replica down costs the primary load,
 * never an answer. Closing closes the replica only: the caller owns the primary.
 */
export function readingReplica(
  replica: SqlDatabase,
  primary: SqlDatabase,
  onFallback: (error: Error) => void = () => {},
): SqlDatabase {
  const either = async <T>(read: (db: SqlDatabase) => Promise<T>): Promise<T> => {
    try {
      return await read(replica);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      onFallback(error as Error);
      return read(primary);
    }
  };
  return {
    kind: replica.kind,
    query: (text, params) => either((db) => db.query(text, params)),
    // Only reads: a transaction cut short on the replica is run again, whole, on the primary.
    transaction: (work) => either((db) => db.transaction(work)),
    listen: (channel, onNotify, onReconnect, onLost) => primary.listen(channel, onNotify, onReconnect, onLost),
    // Both, so the primary's connections can open the read models' sealed columns too.
    async useSessionSetting(name, value) {
      await replica.useSessionSetting(name, value);
      await primary.useSessionSetting(name, value);
    },
    stats: replica.stats && (() => replica.stats!()),
    close: () => replica.close(),
  };
}

/**
 * Waits until the replica has replayed everything the primary had written when this was called
 * (its WAL position then), at most `timeoutMs`; answers whether it did. Used at start, so that
 * what a service just made on the primary (the schema, the read models' key) is there to read.
 */
export async function replicaCaughtUp(primary: SqlDatabase, replica: SqlDatabase, timeoutMs = 30_000) {
  const [{ lsn } = { lsn: '0/0' }] = await primary.query<{ lsn: string }>(`SELECT pg_current_wal_lsn()::text AS lsn`);
  for (const deadline = Date.now() + timeoutMs; ;) {
    // A server not in recovery (READ_DATABASE_URL naming a primary) has nothing to replay.
    const [row] = await replica.query<{ replayed: boolean | null }>(
      `SELECT NOT pg_is_in_recovery() OR pg_last_wal_replay_lsn() >= $1::pg_lsn AS replayed`,
      [lsn],
    );
    if (row?.replayed) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
