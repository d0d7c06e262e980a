import { PGlite } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PgliteQuery, pgliteStatements } from '../src/store/pglite-statements.ts';

/**
 * The embedded database's kept statements read their rows from PostgreSQL's bytes themselves
 * (pglite-rows.ts, bytea asked for in binary): whatever the values, the rows are those PGlite's
 * own `query` answers, and an error is the one it throws.
 */
describe("the embedded database's rows, read by the portal", () => {
  let db: PGlite;
  let kept: PgliteQuery;
  beforeAll(async () => {
    db = new PGlite();
    await db.waitReady;
    kept = pgliteStatements(db);
    await db.exec(`CREATE TABLE rows_read (
      id int PRIMARY KEY, body bytea, bodies bytea[], name text, names text[], n bigint, ok boolean,
      at timestamptz, doc jsonb, amount numeric, UNIQUE (name))`);
  });
  afterAll(() => db.close());

  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }).filter((t) => !t.includes('\0')),
    fc.constantFrom('', 'ก่ำ', '\u200fשלום', '=1+2', '"\\', 'é\udc00'),
  );
  const bytes = fc.uint8Array({ maxLength: 48 });
  const row = fc.record({
    body: fc.option(bytes),
    bodies: fc.option(fc.array(fc.option(bytes), { maxLength: 4 })),
    name: fc.option(text),
    names: fc.option(fc.array(fc.option(text), { maxLength: 4 })),
    n: fc.option(fc.maxSafeInteger()),
    ok: fc.option(fc.boolean()),
    at: fc.option(fc.date({ min: new Date('1970-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })),
    doc: fc.option(fc.jsonValue().map((value) => ({ value }))),
    amount: fc.option(fc.integer().map((i) => `${i}.25`)),
  });
  const select = `SELECT id, body, bodies, name, names, n, ok, at, doc, amount, body AS again FROM rows_read WHERE id = $1`;
  /** Bytes compared as bytes: ours are views of one answer, PGlite's arrays of their own. */
  const plain = (value: unknown): unknown =>
    value instanceof Uint8Array
      ? ['bytes', ...value]
      : Array.isArray(value)
        ? value.map(plain)
        : value instanceof Date || value === null || typeof value !== 'object'
          ? value
          : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));

  it('answers every type as PGlite does, nulls, empty bytes and a column named twice included', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(row, async (values) => {
        id++;
        // Written by the portal's serializer (PGlite's measures a lone surrogate a byte short).
        await kept(
          db,
          `INSERT INTO rows_read (id, body, bodies, name, names, n, ok, at, doc, amount)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          // A name is unique: the error test below needs the constraint.
          [
            id,
            values.body,
            values.bodies,
            values.name === null ? null : `${values.name}#${id}`,
            values.names,
            values.n,
            values.ok,
            values.at,
            values.doc,
            values.amount,
          ],
        );
        const ours = await kept(db, select, [id]);
        const pglites = (await db.query(select, [id])).rows;
        expect(plain(ours)).toEqual(plain(pglites));
        expect(Object.keys(ours[0] as object)).toEqual(Object.keys(pglites[0] as object));
      }),
      { numRuns: 200 },
    );
    const twice = `SELECT 1 AS a, 'x'::bytea AS b, 2 AS a`;
    expect(plain(await kept(db, twice, []))).toEqual(plain((await db.query(twice)).rows));
  });

  it('reads an answer that came in many pieces: a megabyte of bytes and ten thousand rows', async () => {
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 7) % 256);
    const [one] = (await kept(db, `SELECT $1::bytea AS big, 'after' AS next`, [big])) as {
      big: Uint8Array;
      next: string;
    }[];
    expect(Buffer.from(one!.big).equals(Buffer.from(big))).toBe(true);
    expect(one!.next).toBe('after');
    const many = `SELECT n, repeat('ก', n % 50) AS t, decode(lpad(to_hex(n), 8, '0'), 'hex') AS b FROM generate_series(1, 10000) AS n`;
    expect(plain(await kept(db, many, []))).toEqual(plain((await db.query(many)).rows));
  });

  it('throws the error PGlite throws, with its code, detail and constraint, and then goes on', async () => {
    await db.query(`INSERT INTO rows_read (id, name) VALUES (-1, 'taken')`);
    const insert = `INSERT INTO rows_read (id, name) VALUES ($1, $2) RETURNING id, body`;
    const ours = await kept(db, insert, [-2, 'taken']).catch((error: unknown) => error);
    const pglites = await db.query(insert, [-2, 'taken']).catch((error: unknown) => error);
    expect(ours).toBeInstanceOf(Error);
    const fields = ['message', 'code', 'detail', 'constraint', 'table', 'severity'] as const;
    const pick = (error: unknown) => Object.fromEntries(fields.map((f) => [f, (error as Record<string, unknown>)[f]]));
    expect(pick(ours)).toEqual(pick(pglites));
    expect(pick(ours).code).toBe('23505');
    expect(await kept(db, insert, [-2, 'free'])).toEqual([{ id: -2, body: null }]);
  });
});
