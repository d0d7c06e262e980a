import type { StoredEvent } from '@portal/contracts/envelope';
import { type Sql, isMissingTable } from '../store/sql.ts';

/**
 * A projection that could not apply an event is set aside instead of stopping every read model.
 * One row in `projection_faults` says which, the event it failed on and why, how often it was
 * tried and when it is tried next; `projection_missed` notes every event it has not applied
 * since (the one it failed on included), whichever projector, partition or batch passed it by.
 * The others follow the log on. A retry applies exactly the missed events, in the log's order;
 * once none is left the projection rejoins. Exact with one projector reading the log and with
 * several sharing Kafka's partitions alike. The projector writes these tables; health and the
 * admins' overview read them.
 */
export async function createFaultTables(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.projection_faults (
    name text PRIMARY KEY,
    failed_position bigint NOT NULL,
    error text NOT NULL,
    attempts integer NOT NULL DEFAULT 1,
    failing_since timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL
  )`);
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.projection_missed (
    name text NOT NULL,
    transaction_id xid8 NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (name, transaction_id, position)
  )`);
}

export interface ProjectionFault {
  /** The projection set aside. */
  projection: string;
  /** The global position of the event it could not apply. */
  position: number;
  error: string;
  attempts: number;
  /** Events it has not applied yet. */
  missed: number;
  failingSince: string;
  nextAttemptAt: string;
}

interface FaultRow {
  name: string;
  failed_position: string;
  error: string;
  attempts: number;
  missed: string;
  failing_since: Date;
  next_attempt_at: Date;
}

/**
 * The projections set aside, longest failing first (none before the projector's first start);
 * with `name`, that one locked for its retry.
 */
export async function readFaults(sql: Sql, schema = 'rm', name?: string): Promise<ProjectionFault[]> {
  const rows = await sql
    .query<FaultRow>(
      `SELECT f.name, f.failed_position::text, f.error, f.attempts, f.failing_since, f.next_attempt_at,
              (SELECT count(*) FROM ${schema}.projection_missed m WHERE m.name = f.name)::text AS missed
         FROM ${schema}.projection_faults f ${name === undefined ? '' : 'WHERE f.name = $1'}
        ORDER BY f.failing_since, f.name
         ${name === undefined ? '' : 'FOR UPDATE OF f'}`,
      name === undefined ? [] : [name],
    )
    .catch((error: unknown) => {
      if (isMissingTable(error)) return [];
      throw error;
    });
  return rows.map((row) => ({
    projection: row.name,
    position: Number(row.failed_position),
    error: row.error,
    attempts: Number(row.attempts),
    missed: Number(row.missed),
    failingSince: new Date(row.failing_since).toISOString(),
    nextAttemptAt: new Date(row.next_attempt_at).toISOString(),
  }));
}

/**
 * The names of the projections set aside, for a batch: shared locks on their faults, so a retry
 * cannot end one while the batch notes what it missed. Cheap when none is (the usual case).
 */
export async function projectionsAside(sql: Sql, schema: string): Promise<Set<string>> {
  const rows = await sql.query<{ name: string }>(`SELECT name FROM ${schema}.projection_faults FOR SHARE`);
  return new Set(rows.map((row) => row.name));
}

/** Sets a projection aside, or records one more failed attempt of one already aside. */
export async function recordFault(
  sql: Sql,
  schema: string,
  fault: { projection: string; position: number; error: string; retryInMs: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO ${schema}.projection_faults (name, failed_position, error, next_attempt_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET failed_position = EXCLUDED.failed_position, error = EXCLUDED.error,
       attempts = ${schema}.projection_faults.attempts + 1, next_attempt_at = EXCLUDED.next_attempt_at`,
    [fault.projection, fault.position, fault.error.slice(0, 2000), fault.retryInMs],
  );
}

/** Notes that each of `projections` passed `events` by. */
export async function noteMissed(
  sql: Sql,
  schema: string,
  projections: readonly string[],
  events: readonly StoredEvent[],
): Promise<void> {
  if (projections.length === 0 || events.length === 0) return;
  await sql.query(
    `INSERT INTO ${schema}.projection_missed (name, transaction_id, position)
     SELECT name, event.transaction_id::xid8, event.position
       FROM unnest($1::text[]) AS name,
            unnest($2::text[], $3::bigint[]) AS event (transaction_id, position)
     ON CONFLICT DO NOTHING`,
    [projections, events.map((event) => event.transactionId), events.map((event) => event.position)],
  );
}

/** The first `limit` events a projection missed, in the log's order, as positions. */
export async function firstMissed(sql: Sql, schema: string, projection: string, limit: number): Promise<number[]> {
  const rows = await sql.query<{ position: string }>(
    `SELECT position::text FROM ${schema}.projection_missed WHERE name = $1
      ORDER BY transaction_id, position LIMIT $2`,
    [projection, limit],
  );
  return rows.map((row) => Number(row.position));
}

/** Forgets missed events once applied, and the fault once nothing is missed: answers whether it rejoined. */
export async function clearMissed(
  sql: Sql,
  schema: string,
  projection: string,
  positions: readonly number[],
): Promise<boolean> {
  await sql.query(`DELETE FROM ${schema}.projection_missed WHERE name = $1 AND position = ANY($2::bigint[])`, [
    projection,
    positions,
  ]);
  const [left] = await sql.query(`SELECT 1 FROM ${schema}.projection_missed WHERE name = $1 LIMIT 1`, [projection]);
  if (left) return false;
  await sql.query(`DELETE FROM ${schema}.projection_faults WHERE name = $1`, [projection]);
  return true;
}
