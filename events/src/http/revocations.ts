import { type Sql, isMissingTable, sqlState } from '../store/sql.ts';

/**
 * Sessions are signed tokens, valid until they expire; an account that is rejected, deleted or
 * erased, or whose password changes, must lose its sessions at once. The command side notes when
 * (in the transaction of the change); both APIs refuse tokens issued before that moment. One
 * session ends on its own at logout: it is noted by its account and the moment it was issued.
 * When each session was last used is kept too (auth.session_activity), so an idle one ends.
 */
export async function createRevocationTable(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS auth`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.revocations (
    account_id text PRIMARY KEY,
    revoked_at timestamptz NOT NULL
  )`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.ended_sessions (
    account_id text NOT NULL,
    issued_at_ms bigint NOT NULL,
    ended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, issued_at_ms)
  )`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.session_activity (
    account_id text NOT NULL,
    issued_at_ms bigint NOT NULL,
    last_seen_ms bigint NOT NULL,
    PRIMARY KEY (account_id, issued_at_ms)
  )`);
}

/** This one session (its account, when it was issued) stops working: a logout. */
export async function endSession(sql: Sql, accountId: string, issuedAtMs: number): Promise<void> {
  await sql.query(`INSERT INTO auth.ended_sessions (account_id, issued_at_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    accountId,
    issuedAtMs,
  ]);
}

/** Every session of the account issued until now stops working. */
export async function revokeSessions(sql: Sql, accountId: string): Promise<void> {
  await sql.query(
    `INSERT INTO auth.revocations (account_id, revoked_at) VALUES ($1, clock_timestamp())
     ON CONFLICT (account_id) DO UPDATE SET revoked_at = clock_timestamp()`,
    [accountId],
  );
}

/** Whether the account's session issued at `issuedAtMs` was revoked or ended, and when it was last used. */
export async function sessionState(
  sql: Sql,
  accountId: string,
  issuedAtMs: number,
): Promise<{ ended: boolean; lastSeenMs: number | null }> {
  try {
    const [row] = await sql.query<{ ended: boolean; last_seen_ms: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM auth.revocations
                       WHERE account_id = $1 AND revoked_at >= to_timestamp($2::double precision / 1000))
           OR EXISTS (SELECT 1 FROM auth.ended_sessions WHERE account_id = $1 AND issued_at_ms = $2::bigint) AS ended,
              (SELECT last_seen_ms FROM auth.session_activity
                WHERE account_id = $1 AND issued_at_ms = $2::bigint)::text AS last_seen_ms`,
      [accountId, issuedAtMs],
    );
    return { ended: row!.ended, lastSeenMs: row!.last_seen_ms === null ? null : Number(row!.last_seen_ms) };
  } catch (error) {
    if (isMissingTable(error)) return { ended: false, lastSeenMs: null }; // nothing noted yet
    throw error;
  }
}

/**
 * Notes that the session was used at `atMs`. Best effort: a read-only database (a query-api on
 * a replica) cannot note it, and the session's commands still will.
 */
export async function noteActivity(sql: Sql, accountId: string, issuedAtMs: number, atMs: number): Promise<void> {
  try {
    await sql.query(
      `INSERT INTO auth.session_activity (account_id, issued_at_ms, last_seen_ms) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, issued_at_ms) DO UPDATE
         SET last_seen_ms = GREATEST(auth.session_activity.last_seen_ms, EXCLUDED.last_seen_ms)`,
      [accountId, issuedAtMs, atMs],
    );
  } catch (error) {
    if (!isMissingTable(error) && sqlState(error) !== READ_ONLY) throw error;
  }
}

const READ_ONLY = '25006';

/** Forgets logouts and activity of sessions issued before `beforeMs`: they have expired anyway. */
export async function forgetExpiredSessions(sql: Sql, beforeMs: number): Promise<void> {
  await sql.query(`DELETE FROM auth.ended_sessions WHERE issued_at_ms < $1`, [beforeMs]);
  await sql.query(`DELETE FROM auth.session_activity WHERE issued_at_ms < $1`, [beforeMs]);
}
