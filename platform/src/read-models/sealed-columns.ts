import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { keyFor } from '../privacy/personal-data.ts';
import { cleanText } from '@portal/contracts/rules/text';
import type { Sql, SqlDatabase } from '../store/sql.ts';

/**
 * Personal data in the read models (names, contacts, messages) is stored sealed, so a dump of
 * the database shows none of it: the projector seals each personal column on its own
 * (AES-256-CBC, a fresh iv per value) with the read models' own key, and a view over the table
 * opens them in SQL (pgcrypto) with the key the reading connection holds as a session setting,
 * never in a table. Column by column, so a query opens only the columns it uses, and filters and
 * sorts on the plain ones (dates, ids, status) still use their indexes. The key is kept wrapped
 * in privacy.subject_keys like a person's key, so DATA_KEY rotation re-wraps it and the read
 * models stay readable without a rebuild. What a dump still shows: how long each value is, to
 * the next 16 bytes.
 */
export const READ_MODEL_KEY_SETTING = 'portal.read_model_key';
const READ_MODEL_SUBJECT = 'portal:read-models';

/** The read models' key, made on first use. */
export async function readModelKey(sql: Sql): Promise<Buffer> {
  return (await keyFor(sql, READ_MODEL_SUBJECT)).key!;
}

/** Lets every connection of `db` open the read models' personal columns (the query side). */
export async function unlockReadModels(db: SqlDatabase): Promise<void> {
  await db.useSessionSetting(READ_MODEL_KEY_SETTING, (await readModelKey(db)).toString('hex'));
}

/**
 * Seals one column's text: iv (16 bytes) then the cipher text of its UTF-8. Null stays null.
 * Cleaned first (cleanText), as personal data is when opened: a NUL would make every query that
 * opens the column fail in PostgreSQL's convert_from.
 */
export function sealText(key: Buffer, text: string | null): Buffer | null {
  if (text === null) return null;
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([iv, cipher.update(cleanText(text), 'utf8'), cipher.final()]);
}

/** Opens what sealText sealed (the projector reading a column back). */
export function openText(key: Buffer, sealed: Uint8Array | null): string | null {
  if (sealed === null) return null;
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
}

/**
 * pgcrypto and `${schema}.opened(sealed)`, which opens a sealed column as text with the
 * connection's key (null for null; an error when the connection holds no key or a wrong one, so
 * a service started without it fails loudly instead of showing blank names).
 */
export async function createOpenFunction(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
  await sql.query(`CREATE OR REPLACE FUNCTION ${schema}.opened(sealed bytea) RETURNS text
    LANGUAGE sql STABLE STRICT AS $$
      SELECT convert_from(decrypt_iv(substring(sealed FROM 17),
        decode(current_setting('${READ_MODEL_KEY_SETTING}'), 'hex'), substring(sealed FOR 16), 'aes-cbc/pad:pkcs'),
        'UTF8')
    $$`);
}

export interface SealedView {
  /** The view's name; the table under it is `${name}_sealed`, with the same columns. */
  name: string;
  /** Columns shown as they are. */
  plain: readonly string[];
  /**
   * Sealed columns (bytea), each shown opened: as text ('' when null, as after an erasure), as
   * nullable text, or as jsonb (sealed as JSON text).
   */
  opened: Record<string, 'text' | 'nullable' | 'jsonb'>;
}

/** The view that shows a sealed table as the plain one it replaces, so the query side reads it unchanged. */
export async function createSealedView(sql: Sql, schema: string, view: SealedView): Promise<void> {
  const opened = (column: string) => `${schema}.opened(t.${column})`;
  const columns = [
    ...view.plain.map((column) => `t.${column}`),
    ...Object.entries(view.opened).map(([column, as]) => {
      if (as === 'text') return `coalesce(${opened(column)}, '') AS ${column}`;
      if (as === 'nullable') return `${opened(column)} AS ${column}`;
      return `${opened(column)}::jsonb AS ${column}`;
    }),
  ];
  await sql.query(`CREATE OR REPLACE VIEW ${schema}.${view.name} AS
    SELECT ${columns.join(', ')} FROM ${schema}.${view.name}_sealed t`);
}
