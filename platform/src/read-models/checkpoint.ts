import { type Checkpoint, type EventStore, START } from '../store/port.ts';
import { type Sql, isMissingTable, notifyAll, notifyAllParams, notifyAllStatement } from '../store/sql.ts';

/**
 * The projector's checkpoint, kept with the read models it describes: the projector writes it in
 * the same transaction as the rows, the query API reads it to wait for a command's events.
 */

export const READ_MODEL_SCHEMA = 'rm';

/** NOTIFYed by the projector after each batch, with the new position: wakes read-your-writes waiters. */
export const PROGRESS_CHANNEL = 'rm_progress';
/**
 * NOTIFYed with the batch's changes, `{"position": n, "courses": [ids]}` (or `"courses": "*"`
 * for a large batch): live pages (server-sent events) refresh what they show.
 */
export const CHANGES_CHANNEL = 'rm_changes';
const NAME = 'projector';

export async function createCheckpointTable(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.checkpoints (
    name text PRIMARY KEY,
    transaction_id xid8 NOT NULL,
    position bigint NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`);
  await sql.query(
    `INSERT INTO ${schema}.checkpoints (name, transaction_id, position) VALUES ($1, '0', 0) ON CONFLICT (name) DO NOTHING`,
    [NAME],
  );
}

/** The checkpoint; `forUpdate` locks it so two projectors cannot apply the same batch. */
export async function readCheckpoint(sql: Sql, schema: string, forUpdate = false): Promise<Checkpoint> {
  const [row] = await sql.query<{ transaction_id: string; position: string }>(
    `SELECT transaction_id::text, position::text FROM ${schema}.checkpoints WHERE name = $1 ${forUpdate ? 'FOR UPDATE' : ''}`,
    [NAME],
  );
  return row ? { transactionId: row.transaction_id, position: Number(row.position) } : START;
}

/**
 * For a batch, in one statement: the checkpoint locked (as `readCheckpoint(sql, schema, true)`),
 * then the projections set aside, with shared locks on their faults (as `projectionsAside`, in
 * that order: the checkpoint's lock first). With `genericPlans`, the rest of the transaction
 * runs its prepared statements on generic plans (`plan_cache_mode`, for this transaction only):
 * a small batch's lists would otherwise be planned anew on every call.
 */
export async function lockCheckpointForBatch(
  sql: Sql,
  schema: string,
  genericPlans = false,
): Promise<{ checkpoint: Checkpoint; aside: Set<string> }> {
  // The setting is a column of the same statement: no round trip of its own. Its text is one of
  // two, so each stays prepared.
  const plans = genericPlans ? `, set_config('plan_cache_mode', 'force_generic_plan', true) AS plans` : '';
  const [row] = await sql.query<{ transaction_id: string; position: string; aside: string[] }>(
    `SELECT c.transaction_id::text, c.position::text,
            ARRAY(SELECT f.name FROM ${schema}.projection_faults f FOR SHARE) AS aside${plans}
       FROM (SELECT transaction_id, position FROM ${schema}.checkpoints WHERE name = $1 FOR UPDATE) c`,
    [NAME],
  );
  if (!row) throw new Error(`${schema}.checkpoints has no row for the projector`);
  return {
    checkpoint: { transactionId: row.transaction_id, position: Number(row.position) },
    aside: new Set(row.aside),
  };
}

/**
 * Writes the checkpoint, then sends `notifications` (notifyAll): on PostgreSQL in the same
 * statement, a round trip fewer on every batch the projector commits.
 */
export async function writeCheckpoint(
  sql: Sql,
  schema: string,
  checkpoint: Checkpoint,
  notifications: readonly (readonly [channel: string, payload: string])[] = [],
): Promise<void> {
  const write = `UPDATE ${schema}.checkpoints SET transaction_id = $2::xid8, position = $3, updated_at = now() WHERE name = $1`;
  const params = [NAME, checkpoint.transactionId, checkpoint.position];
  if (notifications.length > 0 && !sql.notify) {
    await sql.query(`WITH written AS (${write}) ${notifyAllStatement(4)}`, [
      ...params,
      ...notifyAllParams(notifications),
    ]);
    return;
  }
  await sql.query(write, params);
  await notifyAll(sql, notifications);
}

export interface ReadModelLag {
  checkpoint: Checkpoint;
  /** Committed events not yet in the read models (including any a long transaction holds back). */
  lagEvents: number;
  /** How long the oldest of those has waited, in seconds; 0 when caught up. */
  lagSeconds: number;
}

/** How far the read models in `schema` are behind the log, from their stored checkpoint. */
export async function readModelLag(store: EventStore, sql: Sql, schema = 'rm'): Promise<ReadModelLag> {
  // Before the projector's first start there are no read models: everything is behind.
  const checkpoint = await readCheckpoint(sql, schema).catch((error: unknown) => {
    if (isMissingTable(error)) return START;
    throw error;
  });
  return { checkpoint, ...(await lagBehind(store, checkpoint)) };
}

/** Committed events after `checkpoint`, and how long the oldest has waited (seconds, one decimal). */
export async function lagBehind(store: EventStore, checkpoint: Checkpoint) {
  const behind = await store.lagBehind(checkpoint);
  const seconds = behind.oldestAt ? Math.max(0, (Date.now() - Date.parse(behind.oldestAt)) / 1000) : 0;
  return { lagEvents: behind.events, lagSeconds: Math.round(seconds * 10) / 10 };
}
