import { type Sql, type SqlDatabase, isMissingTable, notify, sqlState } from '../store/sql.ts';

/**
 * Sessions are signed tokens, valid until they expire; an account that is rejected, deleted or
 * erased, or whose password changes, must lose its sessions at once. The command side notes when
 * (in the transaction of the change); both APIs refuse tokens issued before that moment. Each
 * session also has a row of its own (auth.session_states, by the token's random session id):
 * when it was last used, so an idle one ends, and whether it was ended by a logout.
 */
export async function createRevocationTable(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS auth`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.revocations (
    account_id text PRIMARY KEY,
    revoked_at timestamptz NOT NULL
  )`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.session_states (
    session_id text PRIMARY KEY,
    account_id text NOT NULL,
    issued_at_ms bigint NOT NULL,
    last_seen_ms bigint,
    ended_at timestamptz
  )`);
  await sql.query(`CREATE INDEX IF NOT EXISTS session_states_issued ON auth.session_states (issued_at_ms)`);
  // Logouts noted by an earlier version, by account and moment of issue (tokens without an id).
  const [old] = await sql.query<{ found: boolean }>(`SELECT to_regclass('auth.ended_sessions') IS NOT NULL AS found`);
  if (old!.found) {
    await sql.query(
      `INSERT INTO auth.session_states (session_id, account_id, issued_at_ms, ended_at)
       SELECT account_id || ':' || issued_at_ms, account_id, issued_at_ms, ended_at FROM auth.ended_sessions
       ON CONFLICT DO NOTHING`,
    );
    await sql.query(`DROP TABLE auth.ended_sessions`);
  }
  await sql.query(`DROP TABLE IF EXISTS auth.session_activity`);
}

/**
 * Told (NOTIFY, with the change, so at its commit) whenever sessions end: a logout, a revocation.
 * Processes that remember sessions' states forget them (./session-memory.ts).
 */
export const SESSIONS_CHANNEL = 'auth_sessions_ended';

/** One session: its random id (from the token), its account, and when it was issued. */
export interface SessionKey {
  sessionId: string;
  accountId: string;
  issuedAtMs: number;
}

/** This one session stops working: a logout. */
export async function endSession(sql: Sql, session: SessionKey): Promise<void> {
  await sql.query(
    `INSERT INTO auth.session_states (session_id, account_id, issued_at_ms, ended_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (session_id) DO UPDATE SET ended_at = now()`,
    [session.sessionId, session.accountId, session.issuedAtMs],
  );
  await notify(sql, SESSIONS_CHANNEL, session.accountId);
}

/**
 * Every session of the account issued until now stops working. Answers that moment (the
 * database's clock, in ms), so a session issued right after can be dated after it whatever the
 * server's own clock says.
 */
export async function revokeSessions(sql: Sql, accountId: string): Promise<number> {
  const [row] = await sql.query<{ revoked_ms: number | string }>(
    `INSERT INTO auth.revocations (account_id, revoked_at) VALUES ($1, clock_timestamp())
     ON CONFLICT (account_id) DO UPDATE SET revoked_at = clock_timestamp()
     RETURNING (extract(epoch FROM revoked_at) * 1000)::float8 AS revoked_ms`,
    [accountId],
  );
  await notify(sql, SESSIONS_CHANNEL, accountId);
  return Number(row!.revoked_ms);
}

/** Whether the session was revoked (with its account) or ended, and when it was last used. */
export async function sessionState(
  sql: SqlDatabase,
  session: SessionKey,
): Promise<{ ended: boolean; lastSeenMs: number | null }> {
  try {
    const [row] = await sql.query<{ ended: boolean; last_seen_ms: string | null }>(
      `SELECT EXISTS (SELECT 1 FROM auth.revocations
                       WHERE account_id = $2 AND revoked_at >= to_timestamp($3::double precision / 1000))
           OR EXISTS (SELECT 1 FROM auth.session_states WHERE session_id = $1 AND ended_at IS NOT NULL) AS ended,
              (SELECT last_seen_ms FROM auth.session_states WHERE session_id = $1)::text AS last_seen_ms`,
      [session.sessionId, session.accountId, session.issuedAtMs],
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
export async function noteActivity(sql: Sql, session: SessionKey, atMs: number): Promise<void> {
  try {
    await sql.query(
      `INSERT INTO auth.session_states (session_id, account_id, issued_at_ms, last_seen_ms) VALUES ($1, $2, $3, $4)
       ON CONFLICT (session_id) DO UPDATE
         SET last_seen_ms = GREATEST(auth.session_states.last_seen_ms, EXCLUDED.last_seen_ms)`,
      [session.sessionId, session.accountId, session.issuedAtMs, atMs],
    );
  } catch (error) {
    if (!isMissingTable(error) && sqlState(error) !== READ_ONLY) throw error;
  }
}

const READ_ONLY = '25006';

/** Forgets logouts and use of sessions issued before `beforeMs`: they have expired anyway. */
export async function forgetExpiredSessions(sql: Sql, beforeMs: number): Promise<void> {
  await sql.query(`DELETE FROM auth.session_states WHERE issued_at_ms < $1`, [beforeMs]);
}
