import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { tooMany } from '@portal/platform/domain/errors';

/**
 * Slows password guessing without letting anyone lock an account (OWASP ASVS 2.2.1):
 *
 * - one client address may make `perAddress` failed attempts per window, across all accounts;
 *   after that it waits until its oldest counted failure leaves the window (a spray from one
 *   place is cut short);
 * - failures against one account, from anywhere, make that account slow for the addresses that
 *   have been failing at it: after `freeFailures`, each further try from such an address waits
 *   1 s, 2 s, 4 s ... (up to `maxDelayMs`) after its previous one. An address that has not been
 *   failing at the account is not slowed, so the owner signs in during a spray from elsewhere.
 *
 * Accounts are counted by a hash of the lower-cased username whether or not it exists, so the
 * answers never tell which usernames do. Counts live in the database (auth.sign_in_attempts),
 * shared by every command-api process. An attempt is recorded before the password is checked
 * (under a per-address lock), so a rush of parallel tries gets exactly the allowance, and a
 * process killed mid-check counts it as failed; a right password removes it again.
 */
export interface ThrottleLimits {
  perAddress: number;
  freeFailures: number;
  maxDelayMs: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perAddress: 20,
  freeFailures: 5,
  maxDelayMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

export async function createSignInAttemptsTable(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS auth`);
  await sql.query(`CREATE TABLE IF NOT EXISTS auth.sign_in_attempts (
    id bigserial PRIMARY KEY,
    account_hash text NOT NULL,
    address text NOT NULL,
    at_ms bigint NOT NULL
  )`);
  await sql.query(`CREATE INDEX IF NOT EXISTS sign_in_attempts_by_address ON auth.sign_in_attempts (address, at_ms)`);
  await sql.query(
    `CREATE INDEX IF NOT EXISTS sign_in_attempts_by_account ON auth.sign_in_attempts (account_hash, at_ms)`,
  );
  // Old tries are pruned on every admission: without this index that would read the whole table.
  await sql.query(`CREATE INDEX IF NOT EXISTS sign_in_attempts_by_time ON auth.sign_in_attempts (at_ms)`);
}

/** Either the caller waits this many seconds, or may try: `attempt` is then settled by the outcome. */
export type Admission = { retryAfter: number } | { attempt: string };

export class SignInThrottle {
  private readonly limits: ThrottleLimits;

  constructor(
    private readonly db: SqlDatabase,
    limits: Partial<ThrottleLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Checks the allowance of `username` from `address` and, when there is one, records the try. */
  async admit(username: string, address: string): Promise<Admission> {
    const { perAddress, freeFailures, maxDelayMs, windowMs } = this.limits;
    const account = accountHash(username);
    const now = this.now();
    const since = now - windowMs;
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('sign-in ' || $1))`, [address]);
      const [counts] = await tx.query<{ address_full_at: string | null; failures: string; last_here: string | null }>(
        `SELECT
           (SELECT at_ms FROM auth.sign_in_attempts WHERE address = $1 AND at_ms > $3
             ORDER BY at_ms DESC OFFSET $4 LIMIT 1)::text AS address_full_at,
           (SELECT count(*) FROM auth.sign_in_attempts WHERE account_hash = $2 AND at_ms > $3)::text AS failures,
           (SELECT max(at_ms) FROM auth.sign_in_attempts
             WHERE account_hash = $2 AND address = $1 AND at_ms > $3)::text AS last_here`,
        [address, account, since, perAddress - 1],
      );
      const waits = [0];
      if (counts!.address_full_at !== null) waits.push(Number(counts!.address_full_at) + windowMs - now);
      const beyondFree = Number(counts!.failures) - freeFailures;
      if (counts!.last_here !== null && beyondFree >= 0) {
        waits.push(Number(counts!.last_here) + Math.min(1000 * 2 ** beyondFree, maxDelayMs) - now);
      }
      const wait = Math.max(...waits);
      if (wait > 0) return { retryAfter: Math.ceil(wait / 1000) };
      await tx.query(`DELETE FROM auth.sign_in_attempts WHERE at_ms <= $1`, [since]);
      const [row] = await tx.query<{ id: string }>(
        `INSERT INTO auth.sign_in_attempts (account_hash, address, at_ms) VALUES ($1, $2, $3) RETURNING id::text AS id`,
        [account, address, now],
      );
      return { attempt: row!.id };
    });
  }

  /**
   * The right password: this try does not count, nor do earlier failures at this account from
   * this address (the owner's own typos). Failures from elsewhere stay counted.
   */
  async succeeded(attempt: string, username: string, address: string): Promise<void> {
    await this.db.query(
      `DELETE FROM auth.sign_in_attempts WHERE id = $1::bigint OR (account_hash = $2 AND address = $3)`,
      [attempt, accountHash(username), address],
    );
  }
}

const accountHash = (username: string) =>
  createHash('sha256').update(username.normalize('NFC').toLowerCase()).digest('base64url');

/** The try's id when `username` may try now from `address`; else 429 with Retry-After. */
export async function admitSignIn(
  throttle: SignInThrottle,
  reply: FastifyReply,
  username: string,
  address: string,
): Promise<string> {
  const admission = await throttle.admit(username, address);
  if ('attempt' in admission) return admission.attempt;
  reply.header('retry-after', String(admission.retryAfter));
  throw tooMany('login.tooMany', { retryAfter: admission.retryAfter });
}
