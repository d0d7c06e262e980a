import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';
import { keyFor } from '../privacy/personal-data.ts';
import { cleanText } from '@portal/contracts/rules/text';
import { replaceWhenChanged } from '../store/replace-when-changed.ts';
import type { Sql, SqlDatabase } from '../store/sql.ts';

/**
 * Personal data in the read models (names, contacts, messages) is stored sealed, so a dump of
 * the database shows none of it: the projector seals each personal column as a value
 * of its own (AES-256-CBC, an iv per value; a row's values at once, sealTexts) with the read
 * models' own key, and a view over the table
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

const unlocked = new WeakMap<SqlDatabase, Buffer>();

/**
 * Lets every connection of `db` open the read models' personal columns (the query side), and
 * this process open rows read sealed (unlockedKey): a hot report opens its page's few values in
 * Node, where it costs far less than pgcrypto in the database.
 */
export async function unlockReadModels(db: SqlDatabase): Promise<void> {
  const key = await readModelKey(db);
  await db.useSessionSetting(READ_MODEL_KEY_SETTING, key.toString('hex'));
  unlocked.set(db, key);
}

/** The key unlockReadModels gave `db` (it never changes: a DATA_KEY rotation re-wraps it). */
export function unlockedKey(db: SqlDatabase): Buffer {
  const key = unlocked.get(db);
  if (!key) throw new Error('the read models are locked: call unlockReadModels first');
  return key;
}

/**
 * A fresh random iv, cut from a pool filled 256 at a time: one call into the random generator
 * costs more than the sealing, and a rebuild seals hundreds of thousands of values.
 */
const ivPool = Buffer.alloc(16 * 256);
let ivOffset = ivPool.length;
function freshIv(): Buffer {
  if (ivOffset === ivPool.length) {
    randomFillSync(ivPool);
    ivOffset = 0;
  }
  ivOffset += 16;
  return Buffer.from(ivPool.subarray(ivOffset - 16, ivOffset));
}

/** AES's block, and a sealed value's iv: 16 bytes. */
const BLOCK = 16;

/**
 * Seals one column's text: iv (16 bytes) then the cipher text of its UTF-8. Null stays null.
 * Cleaned first (cleanText), as personal data is when opened: a NUL would make every query that
 * opens the column fail in PostgreSQL's convert_from.
 */
export function sealText(key: Buffer, text: string | null): Buffer | null {
  return sealTexts(key, [text])[0]!;
}

/**
 * Seals many columns' texts at once (a row's), each as sealText would, with one cipher: a cipher
 * per value cost a registration's 14 values 80 µs, one 25 (docs/performance.md). The values, each padded on its own,
 * are enciphered as one CBC message behind one fresh iv; CBC enciphers each block XORed with the
 * cipher block before it, so each value's slice, behind the block before it as its iv, is that
 * value sealed alone (openText opens it, and so does pgcrypto). One message's blocks are as
 * unforeseeable as fresh ivs to anyone who chose none of its texts after seeing a block of it,
 * and every text here is fixed before the first block exists. Nulls stay null.
 */
export function sealTexts(key: Buffer, texts: readonly (string | null)[]): (Buffer | null)[] {
  const padded = texts.map((text) => (text === null ? null : pad(Buffer.from(cleanText(text), 'utf8'))));
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
  const whole = Buffer.concat([cipher.update(Buffer.concat(padded.filter((part) => part !== null))), cipher.final()]);
  let offset = 0;
  let before = iv;
  return padded.map((part) => {
    if (part === null) return null;
    const body = whole.subarray(offset, offset + part.length);
    offset += part.length;
    const sealed = Buffer.concat([before, body]);
    before = body.subarray(body.length - BLOCK);
    return sealed;
  });
}

/** PKCS#7: 1 to 16 bytes, each the number added (as the cipher's own padding). */
function pad(text: Buffer): Buffer {
  const added = BLOCK - (text.length % BLOCK);
  const padded = Buffer.alloc(text.length + added, added);
  text.copy(padded);
  return padded;
}

/** Opens what sealText sealed (the projector reading a column back). */
export function openText(key: Buffer, sealed: Uint8Array | null): string | null {
  return openTexts(key, [sealed])[0]!;
}

/**
 * Opens many sealed values at once (a page of rows), with one decipher where one per value cost
 * a page of registrations over a millisecond: in CBC each block is deciphered, then XORed with
 * the block before it, so the values laid end to end, each behind its own iv, decipher as one
 * text in which only the blocks at the ivs come out as noise (skipped). Each value's padding is
 * checked and cut here, as the decipher's `final` does for one: a wrong key fails as loudly.
 */
export function openTexts(key: Buffer, sealed: readonly (Uint8Array | null)[]): (string | null)[] {
  let length = 0;
  for (const value of sealed) {
    if (value === null) continue;
    if (value.length < 2 * BLOCK || value.length % BLOCK !== 0) throw new Error('a sealed value is not whole blocks');
    length += value.length;
  }
  if (length === 0) return sealed.map(() => null);
  const whole = Buffer.allocUnsafe(length);
  let at = 0;
  for (const value of sealed) {
    if (value === null) continue;
    whole.set(value, at);
    at += value.length;
  }
  const decipher = createDecipheriv('aes-256-cbc', key, whole.subarray(0, BLOCK)).setAutoPadding(false);
  // Deciphered from the first value's text on: byte i of `plain` is byte i + BLOCK of `whole`.
  const plain = decipher.update(whole.subarray(BLOCK));
  decipher.final();
  at = 0;
  return sealed.map((value) => {
    if (value === null) return null;
    const from = at;
    const to = at + value.length - BLOCK;
    at += value.length;
    const padding = plain[to - 1]!;
    let padded = padding >= 1 && padding <= BLOCK;
    for (let i = to - padding; padded && i < to; i++) padded = plain[i] === padding;
    if (!padded) throw new Error('bad decrypt: the read models’ key does not open this value');
    return plain.toString('utf8', from, to - padding);
  });
}

/**
 * A blind index for searching sealed text (the registration report's search): the text's
 * three-character pieces (code points, as PostgreSQL's substr counts them), each enciphered with
 * a key of its own derived from the read models' key (the piece's UTF-8, at most 12 bytes,
 * zero-padded to one AES-256 block; the first 4 bytes as a signed int), so a GIN index over them
 * finds the rows that may contain a searched fragment without the database holding the text:
 * only the few rows found are opened to check. What a dump shows: which rows share a piece (not
 * what it is), and how many pieces each text has.
 */
export const SEARCH_GRAM_LENGTH = 3;
const SEARCH_GRAM_CONTEXT = 'portal:search-grams';
/**
 * The pieces' key and its cipher, made once for the read models' key. ECB with no padding keeps
 * nothing from one update to the next when each is given whole blocks, so one cipher serves every
 * call: making one (and finishing it) a text cost a rebuild more than enciphering its pieces.
 */
let derived: { key: Buffer; cipher: ReturnType<typeof createCipheriv> } | null = null;

export function searchGrams(key: Buffer, text: string): number[] {
  if (derived?.key !== key) {
    const gramKey = createHmac('sha256', key).update(SEARCH_GRAM_CONTEXT).digest();
    derived = { key, cipher: createCipheriv('aes-256-ecb', gramKey, null).setAutoPadding(false) };
  }
  // The pieces are cut from the text's UTF-8 where each character starts (a byte that does not
  // continue one): a string and a write per piece cost a rebuild more than enciphering them.
  const bytes = Buffer.from(cleanText(text), 'utf8');
  const starts: number[] = [];
  for (let i = 0; i < bytes.length; i++) if ((bytes[i]! & 0xc0) !== 0x80) starts.push(i);
  starts.push(bytes.length);
  const count = Math.max(0, starts.length - SEARCH_GRAM_LENGTH);
  if (count === 0) return [];
  const blocks = Buffer.alloc(count * BLOCK);
  for (let i = 0; i < count; i++) {
    for (let from = starts[i]!, to = starts[i + SEARCH_GRAM_LENGTH]!, at = i * BLOCK; from < to; from++, at++)
      blocks[at] = bytes[from]!;
  }
  const enciphered = derived.cipher.update(blocks);
  const pieces = new Int32Array(count);
  for (let i = 0, at = 0; i < count; i++, at += BLOCK) {
    // The block's first 4 bytes as a signed int (big-endian), as readInt32BE reads them.
    pieces[i] =
      (enciphered[at]! << 24) | (enciphered[at + 1]! << 16) | (enciphered[at + 2]! << 8) | enciphered[at + 3]!;
  }
  pieces.sort(); // numeric, as a typed array sorts
  const grams: number[] = [];
  for (let i = 0; i < count; i++) if (i === 0 || pieces[i] !== pieces[i - 1]) grams.push(pieces[i]!);
  return grams;
}

/**
 * pgcrypto and `${schema}.opened(sealed)`, which opens a sealed column as text with the
 * connection's key (null for null; an error when the connection holds no key or a wrong one, so
 * a service started without it fails loudly instead of showing blank names).
 */
export async function createOpenFunction(sql: Sql, schema: string): Promise<void> {
  await sql.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
  await replaceWhenChanged(
    sql,
    `FUNCTION ${schema}.opened(bytea)`,
    `CREATE OR REPLACE FUNCTION ${schema}.opened(sealed bytea) RETURNS text
    LANGUAGE sql STABLE STRICT AS $$
      SELECT convert_from(decrypt_iv(substring(sealed FROM 17),
        decode(current_setting('${READ_MODEL_KEY_SETTING}'), 'hex'), substring(sealed FOR 16), 'aes-cbc/pad:pkcs'),
        'UTF8')
    $$`,
  );
  // The query side's half of searchGrams: the same pieces and ciphers, for a searched fragment.
  await replaceWhenChanged(
    sql,
    `FUNCTION ${schema}.search_grams(text)`,
    `CREATE OR REPLACE FUNCTION ${schema}.search_grams(searched text) RETURNS int[]
    LANGUAGE sql STABLE STRICT AS $$
      SELECT coalesce(array_agg(DISTINCT ('x' || encode(substring(encrypt(
               piece || decode(repeat('00', ${BLOCK} - octet_length(piece)), 'hex'), gram_key, 'aes-ecb/pad:none')
               FOR 4), 'hex'))::bit(32)::int), '{}')
        FROM (SELECT hmac(convert_to('${SEARCH_GRAM_CONTEXT}', 'UTF8'),
                decode(current_setting('${READ_MODEL_KEY_SETTING}'), 'hex'), 'sha256') AS gram_key) AS derived,
             LATERAL (SELECT convert_to(substr(searched, i, ${SEARCH_GRAM_LENGTH}), 'UTF8') AS piece
                        FROM generate_series(1, char_length(searched) - ${SEARCH_GRAM_LENGTH - 1}) AS i) AS pieces
    $$`,
  );
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
  await replaceWhenChanged(
    sql,
    `VIEW ${schema}.${view.name}`,
    `CREATE OR REPLACE VIEW ${schema}.${view.name} AS
    SELECT ${columns.join(', ')} FROM ${schema}.${view.name}_sealed t`,
  );
}
