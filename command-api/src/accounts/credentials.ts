import type { Role } from '@portal/contracts/accounts/account.events';
import type { UniqueField } from '@portal/contracts/rules/registration';
import type { Sql } from '@portal/platform/store/sql';
import { revokeSessions } from '@portal/platform/http/revocations';
import { eraseKey, lookupDigest, lookupDigester } from '@portal/platform/privacy/personal-data';

/**
 * The command side's own tables for accounts: password hashes (never in the log) and the
 * reservations that keep username, national id, phone and e-mail unique. Both are written in the
 * same transaction as the account's events, so two racing registrations cannot both win. A
 * reservation holds a keyed digest of the value (lookupDigest), never the value itself: a copy of
 * the database without DATA_KEY must not show who registered.
 */
export async function createAccountTables(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS cmd`);
  await sql.query(`CREATE TABLE IF NOT EXISTS cmd.credentials (
    account_id text PRIMARY KEY,
    role text NOT NULL,
    password_hash text NOT NULL
  )`);
  // From the catalogue itself: information_schema.columns took 55 to 75 ms on PGlite, at every start.
  const [layout] = await sql.query<{ plain: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_attribute
                     WHERE attrelid = to_regclass('cmd.unique_values') AND attname = 'value' AND NOT attisdropped) AS plain`,
  );
  if (layout!.plain) await sql.query(`ALTER TABLE cmd.unique_values RENAME TO unique_values_plain`);
  await sql.query(`CREATE TABLE IF NOT EXISTS cmd.unique_values (
    field text NOT NULL,
    digest text NOT NULL,
    account_id text NOT NULL,
    PRIMARY KEY (field, digest)
  )`);
  if (layout!.plain) {
    // Written by an earlier version in the clear: digested once, then gone.
    const rows = await sql.query<{ field: UniqueField; value: string; account_id: string }>(
      `SELECT field, value, account_id FROM cmd.unique_values_plain`,
    );
    for (const row of rows) {
      await sql.query(`INSERT INTO cmd.unique_values (field, digest, account_id) VALUES ($1, $2, $3)`, [
        row.field,
        await digestOf(sql, row.field, row.value),
        row.account_id,
      ]);
    }
    await sql.query(`DROP TABLE cmd.unique_values_plain`);
  }
}

/** The stored form of a unique value: a keyed digest of it, normalised. */
export const digestOf = (sql: Sql, field: UniqueField, value: string) =>
  lookupDigest(sql, field, normalise(field, value));

/** Usernames and e-mail addresses are unique whatever their case. */
export const normalise = (field: UniqueField, value: string) =>
  field === 'username' || field === 'personalEmail' || field === 'companyEmail' ? value.toLowerCase() : value;

export type UniqueValues = Partial<Record<UniqueField, string>>;

/** Which of the values are already taken by some account (other than `exceptAccountId`). */
export async function takenFields(sql: Sql, values: UniqueValues, exceptAccountId = ''): Promise<UniqueField[]> {
  const entries = Object.entries(values).filter(([, value]) => value) as [UniqueField, string][];
  if (entries.length === 0) return [];
  const params: string[] = [exceptAccountId];
  const digest = await lookupDigester(sql);
  for (const [field, value] of entries) params.push(field, digest(field, normalise(field, value)));
  const pairs = entries.map((_, i) => `($${i * 2 + 2}, $${i * 2 + 3})`).join(', ');
  const rows = await sql.query<{ field: UniqueField }>(
    `SELECT field FROM cmd.unique_values WHERE (field, digest) IN (${pairs}) AND account_id <> $1`,
    params,
  );
  return rows.map((row) => row.field);
}

/** Moves the account's reservations of these fields to the new values (a changed phone or e-mail). */
export async function replaceReservations(sql: Sql, accountId: string, values: UniqueValues): Promise<void> {
  for (const field of Object.keys(values)) {
    await sql.query(`DELETE FROM cmd.unique_values WHERE account_id = $1 AND field = $2`, [accountId, field]);
  }
  await reserve(sql, accountId, values);
}

export async function reserve(sql: Sql, accountId: string, values: UniqueValues): Promise<void> {
  const entries = (Object.entries(values) as [UniqueField, string][]).filter(([, value]) => value);
  if (entries.length === 0) return;
  const digest = await lookupDigester(sql);
  // One statement for all of them: a unique violation on any refuses the registration.
  await sql.query(
    `INSERT INTO cmd.unique_values (field, digest, account_id)
     SELECT f, d, $3 FROM unnest($1::text[], $2::text[]) AS v(f, d)`,
    [
      entries.map(([field]) => field),
      entries.map(([field, value]) => digest(field, normalise(field, value))),
      accountId,
    ],
  );
}

export async function saveCredentials(sql: Sql, accountId: string, role: Role, passwordHash: string): Promise<void> {
  await sql.query(`INSERT INTO cmd.credentials (account_id, role, password_hash) VALUES ($1, $2, $3)`, [
    accountId,
    role,
    passwordHash,
  ]);
}

/**
 * A deleted or erased account frees its values, can no longer sign in (its sessions end now),
 * and loses its key: what its events sealed can never be read again.
 */
export async function forgetAccount(sql: Sql, accountId: string): Promise<void> {
  await sql.query(`DELETE FROM cmd.unique_values WHERE account_id = $1`, [accountId]);
  await sql.query(`DELETE FROM cmd.credentials WHERE account_id = $1`, [accountId]);
  await eraseKey(sql, accountId);
  await revokeSessions(sql, accountId);
}

export async function findCredentials(
  sql: Sql,
  username: string,
): Promise<{ accountId: string; role: Role; passwordHash: string } | null> {
  const [row] = await sql.query<{ account_id: string; role: Role; password_hash: string }>(
    `SELECT c.account_id, c.role, c.password_hash
       FROM cmd.unique_values u JOIN cmd.credentials c USING (account_id)
      WHERE u.field = 'username' AND u.digest = $1`,
    [await digestOf(sql, 'username', username)],
  );
  return row ? { accountId: row.account_id, role: row.role, passwordHash: row.password_hash } : null;
}

export async function passwordHashOf(sql: Sql, accountId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ password_hash: string }>(
    `SELECT password_hash FROM cmd.credentials WHERE account_id = $1`,
    [accountId],
  );
  return row?.password_hash;
}

/** The password hash, with the row locked until the transaction ends (a link used twice at once). */
export async function lockedPasswordHashOf(sql: Sql, accountId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ password_hash: string }>(
    `SELECT password_hash FROM cmd.credentials WHERE account_id = $1 FOR UPDATE`,
    [accountId],
  );
  return row?.password_hash;
}

export async function savePasswordHash(sql: Sql, accountId: string, passwordHash: string): Promise<void> {
  await sql.query(`UPDATE cmd.credentials SET password_hash = $2 WHERE account_id = $1`, [accountId, passwordHash]);
}

export async function hasAdmin(sql: Sql): Promise<boolean> {
  const rows = await sql.query(`SELECT 1 FROM cmd.credentials WHERE role = 'admin' LIMIT 1`);
  return rows.length > 0;
}
