import { type Sql, isMissingTable } from '../store/sql.ts';

/**
 * Sessions are signed tokens, valid until they expire; an account that is rejected, deleted or
 * erased, or whose password changes, must lose its sessions at once. The command side notes when
 * (in the transaction of the change); both APIs refuse tokens issued before that moment. One
 * session ends on its own at logout: it is noted by its account and the moment it was issued.
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

/** Was the account's session, issued at `issuedAtMs`, revoked or ended since? */
export async function isRevoked(sql: Sql, accountId: string, issuedAtMs: number): Promise<boolean> {
  try {
    const rows = await sql.query(
      `SELECT 1 FROM auth.revocations WHERE account_id = $1 AND revoked_at >= to_timestamp($2::double precision / 1000)
       UNION ALL
       SELECT 1 FROM auth.ended_sessions WHERE account_id = $1 AND issued_at_ms = $2::bigint`,
      [accountId, issuedAtMs],
    );
    return rows.length > 0;
  } catch (error) {
    if (isMissingTable(error)) return false; // nothing revoked yet
    throw error;
  }
}
