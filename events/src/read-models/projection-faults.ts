import type { Checkpoint } from '../store/port.ts';
import { type Sql, isMissingTable } from '../store/sql.ts';

/**
 * A projection that could not apply an event is set aside instead of stopping every read model:
 * one row here says where it stopped (its own checkpoint: everything up to there is applied),
 * the event it failed on and why, how often it was retried and when it is tried next. The others
 * follow the log on; once this one applies the event it catches up to them and its row goes.
 * The projector writes this table; health and the admins' overview read it.
 */
export async function createFaultTable(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.projection_faults (
    name text PRIMARY KEY,
    transaction_id xid8 NOT NULL,
    position bigint NOT NULL,
    failed_position bigint NOT NULL,
    error text NOT NULL,
    attempts integer NOT NULL DEFAULT 1,
    failing_since timestamptz NOT NULL DEFAULT now(),
    next_attempt_at timestamptz NOT NULL
  )`);
}

export interface ProjectionFault {
  /** The projection set aside. */
  projection: string;
  /** Where it stands: every event up to here is applied to it. */
  checkpoint: Checkpoint;
  /** The global position of the event it could not apply. */
  position: number;
  error: string;
  attempts: number;
  failingSince: string;
  nextAttemptAt: string;
}

interface FaultRow {
  name: string;
  transaction_id: string;
  position: string;
  failed_position: string;
  error: string;
  attempts: number;
  failing_since: Date;
  next_attempt_at: Date;
}

/** The projections set aside, longest failing first (none before the projector's first start). */
export async function readFaults(sql: Sql, schema = 'rm', forUpdate = false): Promise<ProjectionFault[]> {
  const rows = await sql
    .query<FaultRow>(
      `SELECT name, transaction_id::text, position::text, failed_position::text, error, attempts, failing_since,
              next_attempt_at
         FROM ${schema}.projection_faults ORDER BY failing_since, name ${forUpdate ? 'FOR UPDATE' : ''}`,
    )
    .catch((error: unknown) => {
      if (isMissingTable(error)) return [];
      throw error;
    });
  return rows.map((row) => ({
    projection: row.name,
    checkpoint: { transactionId: row.transaction_id, position: Number(row.position) },
    position: Number(row.failed_position),
    error: row.error,
    attempts: Number(row.attempts),
    failingSince: new Date(row.failing_since).toISOString(),
    nextAttemptAt: new Date(row.next_attempt_at).toISOString(),
  }));
}

/** Sets a projection aside at `checkpoint`, or records one more failed attempt of one already aside. */
export async function recordFault(
  sql: Sql,
  schema: string,
  fault: { projection: string; checkpoint: Checkpoint; position: number; error: string; retryInMs: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO ${schema}.projection_faults (name, transaction_id, position, failed_position, error, next_attempt_at)
     VALUES ($1, $2::xid8, $3, $4, $5, now() + $6 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET failed_position = EXCLUDED.failed_position, error = EXCLUDED.error,
       attempts = ${schema}.projection_faults.attempts + 1, next_attempt_at = EXCLUDED.next_attempt_at`,
    [
      fault.projection,
      fault.checkpoint.transactionId,
      fault.checkpoint.position,
      fault.position,
      fault.error.slice(0, 2000),
      fault.retryInMs,
    ],
  );
}
