import { createDecipheriv, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanText } from '@portal/contracts/rules/text';
import {
  READ_MODEL_KEY_SETTING,
  createOpenFunction,
  createSealedView,
  openText,
  openTexts,
  readModelKey,
  sealText,
  sealTexts,
  searchGrams,
  unlockReadModels,
} from '../src/read-models/sealed-columns.ts';
import { createEventStoreSchema } from '../src/store/schema.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

/**
 * Read-model columns sealed by the projector (Node) and opened by a view (pgcrypto in SQL): any
 * text a person could have written comes back as it went in (cleaned as personal data is when
 * opened), on PGlite and PostgreSQL, and nothing opens without the key.
 */
describe.each(testDatabases())('sealed read-model columns on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  let key: Buffer;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await createEventStoreSchema(db);
    await db.query(`CREATE SCHEMA IF NOT EXISTS sealed_test`);
    await createOpenFunction(db, 'sealed_test');
    await db.query(`CREATE TABLE sealed_test.notes_sealed (id int PRIMARY KEY, body bytea, extra bytea, tag text)`);
    await createSealedView(db, 'sealed_test', {
      name: 'notes',
      plain: ['id', 'tag'],
      opened: { body: 'text', extra: 'jsonb' },
    });
    key = await readModelKey(db);
    await unlockReadModels(db);
  });
  afterAll(() => drop());

  const roundTrip = async (text: string) => {
    await db.query(`DELETE FROM sealed_test.notes_sealed`);
    await db.query(`INSERT INTO sealed_test.notes_sealed (id, body) VALUES (1, $1)`, [sealText(key, text)]);
    const [row] = await db.query<{ body: string }>(`SELECT body FROM sealed_test.notes WHERE id = 1`);
    return row!.body;
  };

  it('opens in SQL exactly the text sealed in Node, whatever it holds', async () => {
    const hostile = [
      'สมชาย ใจดี',
      'ก้่ำ\u0E4C\u0E39\u0E38', // Thai combining marks
      '\u202Eevil\u202C \u200F', // right-to-left override and mark
      'nul\u0000inside',
      'lone \uD800 surrogate',
      '=HYPERLINK("http://evil.example")',
      '<img src=x onerror=alert(1)>',
      '',
      'x'.repeat(1024 * 1024),
    ];
    for (const text of hostile) expect(await roundTrip(text)).toBe(cleanText(text));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        expect(await roundTrip(text)).toBe(cleanText(text));
        expect(openText(key, sealText(key, text))).toBe(cleanText(text));
      }),
      { numRuns: 100 },
    );
  });

  it('opens in SQL each value of a row sealed at once, as if each were sealed alone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.string({ unit: 'binary', maxLength: 120 }), { nil: null }),
        fc.option(fc.record({ name: fc.string({ maxLength: 40 }), n: fc.integer() }), { nil: null }),
        async (body, extra) => {
          const [sealedBody, sealedExtra] = sealTexts(key, [body, extra && JSON.stringify(extra)]);
          await db.query(`DELETE FROM sealed_test.notes_sealed`);
          await db.query(`INSERT INTO sealed_test.notes_sealed (id, body, extra) VALUES (1, $1, $2)`, [
            sealedBody,
            sealedExtra,
          ]);
          const [row] = await db.query<{ body: string; extra: unknown }>(
            `SELECT body, extra FROM sealed_test.notes WHERE id = 1`,
          );
          // The view shows a null text as empty (as sealText's), a null jsonb as null.
          expect(row).toEqual({ body: body === null ? '' : cleanText(body), extra });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('finds the same search pieces in SQL as the projector in Node, so a fragment finds the text it is in', async () => {
    const sqlGrams = async (text: string) =>
      (await db.query<{ grams: number[] }>(`SELECT sealed_test.search_grams($1) AS grams`, [text]))[0]!.grams;
    const sorted = (grams: number[]) => [...grams].sort((a, b) => a - b);
    for (const text of ['สมชาย ใจดี', 'ก้่ำ\u0E4C', 'emoji 😀😀😀 x', '0812345678', 'ab', '']) {
      expect(sorted(await sqlGrams(text))).toEqual(searchGrams(key, text));
    }
    expect(searchGrams(key, 'ab')).toEqual([]);
    expect(new Set(searchGrams(key, 'somchai')).size).toBe(5);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 60 }), fc.nat(), fc.nat(), async (raw, from, length) => {
        const text = cleanText(raw).toLowerCase();
        expect(sorted(await sqlGrams(text))).toEqual(searchGrams(key, text));
        // Any fragment's pieces are among the whole text's pieces.
        const chars = Array.from(text);
        const start = from % (chars.length + 1);
        const fragment = chars.slice(start, start + (length % 12)).join('');
        const whole = new Set(searchGrams(key, text));
        expect(searchGrams(key, fragment).every((gram) => whole.has(gram))).toBe(true);
      }),
      { numRuns: 100 },
    );
    // Another key, other pieces: the index is no dictionary of plain trigrams.
    expect(searchGrams(Buffer.alloc(32, 7), 'somchai')).not.toEqual(searchGrams(key, 'somchai'));
  });

  it('seals the same text differently each time, and shows null as empty, jsonb as jsonb', async () => {
    expect(sealText(key, 'same')).not.toEqual(sealText(key, 'same'));
    // Each with its own iv, past the pool of ivs refilling (256 at a time), and each opens.
    const sealedMany = Array.from({ length: 1000 }, () => sealText(key, 'same')!);
    expect(new Set(sealedMany.map((sealed) => sealed.subarray(0, 16).toString('hex'))).size).toBe(1000);
    expect(sealedMany.every((sealed) => openText(key, sealed) === 'same')).toBe(true);
    await db.query(`DELETE FROM sealed_test.notes_sealed`);
    await db.query(`INSERT INTO sealed_test.notes_sealed (id, body, extra, tag) VALUES (2, NULL, $1, 'plain')`, [
      sealText(key, JSON.stringify({ companyName: 'บริษัท ก' })),
    ]);
    expect(await db.query(`SELECT * FROM sealed_test.notes`)).toEqual([
      { id: 2, tag: 'plain', body: '', extra: { companyName: 'บริษัท ก' } },
    ]);
  });

  it('opens nothing without the key or with another one, and leaves plain columns readable', async () => {
    await db.query(
      `INSERT INTO sealed_test.notes_sealed (id, body, tag) VALUES (3, $1, 'kept') ON CONFLICT DO NOTHING`,
      [sealText(key, 'private words')],
    );
    try {
      await db.query(`SELECT set_config('${READ_MODEL_KEY_SETTING}', $1, false)`, [
        Buffer.alloc(32, 1).toString('hex'),
      ]);
      await expect(db.query(`SELECT body FROM sealed_test.notes WHERE id = 3`)).rejects.toThrow();
      expect(await db.query(`SELECT tag FROM sealed_test.notes WHERE id = 3`)).toEqual([{ tag: 'kept' }]);
      const [raw] = await db.query<{ text: string }>(
        `SELECT t::text AS text FROM sealed_test.notes_sealed t WHERE id = 3`,
      );
      expect(raw!.text).not.toContain('private');
    } finally {
      await unlockReadModels(db);
    }
    expect(await db.query(`SELECT body FROM sealed_test.notes WHERE id = 3`)).toEqual([{ body: 'private words' }]);
  });
});

/** What a page's sealed values open to, one decipher each: the standard way, for comparing. */
const openedOneByOne = (key: Buffer, sealed: Uint8Array | null) => {
  if (sealed === null) return null;
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-cbc', key, bytes.subarray(0, 16));
  return Buffer.concat([decipher.update(bytes.subarray(16)), decipher.final()]).toString('utf8');
};

describe('a page of sealed values opened at once', () => {
  const key = randomBytes(32);

  it('opens each value as its own decipher would, whatever the values and nulls among them', () => {
    const texts = fc.array(fc.option(fc.string({ unit: 'binary', maxLength: 120 }), { nil: null }), { maxLength: 40 });
    fc.assert(
      fc.property(texts, (page) => {
        const sealed = page.map((text) => sealText(key, text));
        expect(openTexts(key, sealed)).toEqual(sealed.map((value) => openedOneByOne(key, value)));
        expect(openTexts(key, sealed)).toEqual(page.map((text) => (text === null ? null : cleanText(text))));
      }),
      { numRuns: 300 },
    );
    // Lengths of whole blocks and one byte short of them (padding of 16 and of 1), and a megabyte.
    const edges = ['', 'x'.repeat(15), 'x'.repeat(16), 'ก'.repeat(5), 'y'.repeat(1024 * 1024)];
    expect(
      openTexts(
        key,
        edges.map((text) => sealText(key, text)),
      ),
    ).toEqual(edges);
  });

  it('seals a row at once as each value alone: each opens by its own decipher, behind an iv of its own', () => {
    const texts = fc.array(fc.option(fc.string({ unit: 'binary', maxLength: 120 }), { nil: null }), { maxLength: 20 });
    const ivs = new Set<string>();
    let values = 0;
    fc.assert(
      fc.property(texts, (row) => {
        const sealed = sealTexts(key, row);
        expect(sealed.map((value) => value && openedOneByOne(key, value))).toEqual(
          row.map((text) => (text === null ? null : cleanText(text))),
        );
        expect(openTexts(key, sealed)).toEqual(row.map((text) => (text === null ? null : cleanText(text))));
        for (const [i, value] of sealed.entries()) {
          if (value === null) continue;
          // The iv, then the text's UTF-8 padded to whole blocks (a whole block of padding at least 1).
          const bytes = Buffer.byteLength(cleanText(row[i]!), 'utf8');
          expect(value.length).toBe(16 + (Math.floor(bytes / 16) + 1) * 16);
          ivs.add(value.subarray(0, 16).toString('hex'));
          values++;
        }
      }),
      { numRuns: 300 },
    );
    expect(ivs.size).toBe(values);
    // The same row twice: sealed differently.
    expect(sealTexts(key, ['a', 'b'])[1]).not.toEqual(sealTexts(key, ['a', 'b'])[1]);
  });

  it('refuses values sealed with another key, and a value cut short, as one decipher would', () => {
    const other = randomBytes(32);
    const sealed = ['a', 'bb', 'ccc', 'dddd'].map((text) => sealText(other, text));
    expect(() => openTexts(key, sealed)).toThrow(/bad decrypt/);
    expect(() => sealed.forEach((value) => openedOneByOne(key, value))).toThrow(/bad decrypt/);
    const cut = sealText(key, 'a longer text than one block')!.subarray(0, 40);
    expect(() => openTexts(key, [cut])).toThrow();
    expect(() => openedOneByOne(key, cut)).toThrow();
    expect(openTexts(key, [null, null])).toEqual([null, null]);
  });
});
