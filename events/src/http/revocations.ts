import { type Sql, isMissingTable } from '../store/sql.ts';

/**
 * Sessions are signed tokens, valid until they expire; an account that is rejected, deleted or
 * erased must lose its sessions at once. The command side notes when (in the transaction of the
 * change); both APIs refuse tokens issued before that moment.
 */
export async function createRevocationTable(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS auth`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.revocations (
    account_id text PRIMARY KEY,
    revoked_at timestamptz NOT NULL
  )`);
}

/** Every session of the account issued until now stops working. */
export async function revokeSessions(sql: Sql, accountId: string): Promise<void> {
  await sql.query(
    `INSERT INTO auth.revocations (account_id, revoked_at) VALUES ($1, clock_timestamp())
     ON CONFLICT (account_id) DO UPDATE SET revoked_at = clock_timestamp()`,
    [accountId],
  );
}

/** Was the account's session, issued at `issuedAtMs`, revoked since? */
export async function isRevoked(sql: Sql, accountId: string, issuedAtMs: number): Promise<boolean> {
  try {
    const rows = await sql.query(
      `SELECT 1 FROM auth.revocations WHERE account_id = $1 AND revoked_at >= to_timestamp($2::double precision / 1000)`,
      [accountId, issuedAtMs],
    );
    return rows.length > 0;
  } catch (error) {
    if (isMissingTable(error)) return false; // nothing revoked yet
    throw error;
  }
}
