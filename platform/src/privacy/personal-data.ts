import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { type Sealed, type SealedBox } from '@portal/contracts/privacy/sealed';
import { cleanText } from '@portal/contracts/rules/text';
import type { Sql, SqlDatabase } from '../store/sql.ts';
import { needsRewrap, unwrapKey, wrapKey } from './data-key.ts';

/**
 * Personal data in events is sealed with a key of its own per person (the "subject", an account
 * id), kept beside the log in `privacy.subject_keys`, wrapped with the key-encryption key from
 * the environment (./data-key.ts), so the database alone opens nothing. Erasure under Thailand's PDPA deletes the
 * key: the log stays immutable and every count built from it stays right, but what was sealed
 * can no longer be read by anyone (crypto-shredding).
 */
export class SubjectErased extends Error {
  constructor(readonly subject: string) {
    super(`personal data of ${subject} was erased`);
    this.name = 'SubjectErased';
  }
}

/** The key table; part of the log's schema (created with it, under its lock). */
export async function createPersonalKeyTable(sql: Sql): Promise<void> {
  await sql.query(`CREATE SCHEMA IF NOT EXISTS privacy`);
  // An erased subject keeps its row with no key, so nothing can be sealed for it again.
  await sql.query(`CREATE TABLE IF NOT EXISTS privacy.subject_keys (
    subject_id text PRIMARY KEY,
    key text,
    created_at timestamptz NOT NULL DEFAULT now(),
    erased_at timestamptz
  )`);
}

async function keyOf(sql: Sql, subject: string): Promise<{ key: Buffer | null; erased: boolean } | null> {
  const [row] = await sql.query<{ key: string | null }>(`SELECT key FROM privacy.subject_keys WHERE subject_id = $1`, [
    subject,
  ]);
  if (!row) return null;
  return { key: row.key === null ? null : unwrapKey(subject, row.key), erased: row.key === null };
}

/**
 * The subject's key, made on first use. Read first: a sign-in or a scan by username looks up a
 * digest on every call, and the key exists after the first one.
 */
export async function keyFor(sql: Sql, subject: string): Promise<{ key: Buffer | null; erased: boolean }> {
  const found = await keyOf(sql, subject);
  if (found) return found;
  const key = randomBytes(32);
  const made = await sql.query(
    `INSERT INTO privacy.subject_keys (subject_id, key) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING subject_id`,
    [subject, wrapKey(subject, key)],
  );
  // Made here: the key is the one just written; otherwise another writer's, read back.
  return made.length > 0 ? { key, erased: false } : (await keyOf(sql, subject))!;
}

/** Seals `value` with the subject's key, creating the key on first use. Refused once erased. */
export async function seal(sql: Sql, subject: string, value: unknown): Promise<SealedBox> {
  const found = await keyFor(sql, subject);
  if (!found.key) throw new SubjectErased(subject);
  return sealWithKey(found.key, subject, value);
}

/** Seals `value` for `subject` with the subject's key already in hand (a generated log). */
export function sealWithKey(key: Buffer, subject: string, value: unknown): SealedBox {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subject));
  const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return {
    alg: 'A256GCM',
    subject,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/**
 * What was sealed, parsed by `schema`; null when the subject's key has been erased. Text is
 * cleaned on the way out (see cleanText): a sealed NUL written before the input rules must not
 * stop a read model.
 */
export async function open<Schema extends z.ZodType>(
  sql: Sql,
  sealed: Sealed,
  schema: Schema,
): Promise<z.output<Schema> | null> {
  if ('plain' in sealed) return schema.parse(cleanText(sealed.plain));
  const found = await keyOf(sql, sealed.subject);
  if (!found?.key) return null;
  return openWithKey(found.key, sealed, schema);
}

function openWithKey<Schema extends z.ZodType>(
  key: Buffer,
  sealed: Exclude<Sealed, { plain: unknown }>,
  schema: Schema,
): z.output<Schema> {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(sealed.subject));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const json = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  return schema.parse(cleanText(JSON.parse(json)));
}

/**
 * A keyed digest of a value that must be looked up but not stored in the clear (a username, a
 * national id kept unique): HMAC-SHA256 with the portal's own lookup key, itself kept wrapped in
 * privacy.subject_keys like a person's key, so rotation re-wraps it and the digests stay valid.
 */
export async function lookupDigest(sql: Sql, purpose: string, value: string): Promise<string> {
  return (await lookupDigester(sql))(purpose, value);
}

/** lookupDigest for many values with one read of the key (an import's tens of thousands). */
export async function lookupDigester(sql: Sql): Promise<(purpose: string, value: string) => string> {
  const found = await keyFor(sql, LOOKUP_SUBJECT);
  return (purpose, value) => createHmac('sha256', found.key!).update(`${purpose}\u0000${value}`).digest('base64url');
}

const LOOKUP_SUBJECT = 'portal:lookup-digests';

/** Deletes the subject's key for good; run it in the transaction that appends the erasure event. */
export async function eraseKey(sql: Sql, subject: string): Promise<void> {
  await sql.query(
    `INSERT INTO privacy.subject_keys (subject_id, key, erased_at) VALUES ($1, NULL, now())
     ON CONFLICT (subject_id) DO UPDATE SET key = NULL, erased_at = now()`,
    [subject],
  );
}

/** Opens sealed data for a reader that holds a connection to the log's database. */
export type PersonalDataReader = <Schema extends z.ZodType>(
  sealed: Sealed,
  schema: Schema,
) => Promise<z.output<Schema> | null>;

export const personalDataReader =
  (sql: Sql): PersonalDataReader =>
  (sealed, schema) =>
    open(sql, sealed, schema);

/**
 * The same for a batch of events (the projector): the keys of every subject sealed in `events`
 * are read in one query when first needed, and each key is read and unwrapped once per batch.
 */
export function batchPersonalDataReader(sql: Sql, events: readonly { data: unknown }[]): PersonalDataReader {
  const keys = new Map<string, Promise<Buffer | null>>();
  let prefetched: Promise<void> | undefined;
  const prefetch = () =>
    (prefetched ??= (async () => {
      const wanted = [...new Set(events.flatMap((event) => sealedSubjectsOf(event.data)))];
      if (wanted.length === 0) return;
      const rows = await sql.query<{ subject_id: string; key: string | null }>(
        `SELECT subject_id, key FROM privacy.subject_keys WHERE subject_id = ANY($1::text[])`,
        [wanted],
      );
      for (const subject of wanted) keys.set(subject, Promise.resolve(null));
      for (const row of rows) {
        keys.set(row.subject_id, Promise.resolve(row.key === null ? null : unwrapKey(row.subject_id, row.key)));
      }
    })());
  return async (sealed, schema) => {
    if ('plain' in sealed) return schema.parse(cleanText(sealed.plain));
    await prefetch();
    let key = keys.get(sealed.subject);
    if (!key) {
      key = keyOf(sql, sealed.subject).then((found) => found?.key ?? null);
      keys.set(sealed.subject, key);
    }
    const found = await key;
    return found ? openWithKey(found, sealed, schema) : null;
  };
}

/** The subjects of the sealed boxes at the top of an event's data (where events keep them). */
const sealedSubjectsOf = (data: unknown): string[] =>
  data && typeof data === 'object'
    ? Object.values(data).flatMap((value) =>
        value && typeof value === 'object' && 'alg' in value && 'subject' in value && typeof value.subject === 'string'
          ? [value.subject]
          : [],
      )
    : [];

/**
 * Wraps every stored key with the current key-encryption key: keys stored before wrapping, and
 * keys wrapped with a previous one (rotation). Events are not touched. Answers how many changed.
 */
export async function rewrapKeys(db: SqlDatabase, onProgress?: (done: number) => void): Promise<number> {
  let done = 0;
  let after = '';
  for (;;) {
    const rows = await db.query<{ subject_id: string; key: string }>(
      `SELECT subject_id, key FROM privacy.subject_keys WHERE key IS NOT NULL AND subject_id > $1
        ORDER BY subject_id LIMIT 500`,
      [after],
    );
    if (rows.length === 0) return done;
    after = rows[rows.length - 1]!.subject_id;
    const stale = rows.filter((row) => needsRewrap(row.key));
    await db.transaction(async (tx) => {
      for (const row of stale) {
        // Only if unchanged meanwhile: an erasure in between must stay an erasure.
        await tx.query(`UPDATE privacy.subject_keys SET key = $3 WHERE subject_id = $1 AND key = $2`, [
          row.subject_id,
          row.key,
          wrapKey(row.subject_id, unwrapKey(row.subject_id, row.key)),
        ]);
      }
    });
    done += stale.length;
    if (stale.length > 0) onProgress?.(done);
  }
}
