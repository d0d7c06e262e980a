import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoredRowOf, column, copyRows, createTable, defineTable, insertRows } from '../src/read-models/table.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

/** Every kind of value a read model's rows carry, each column nullable but the key. */
const things = defineTable(
  'things',
  {
    id: column<number>('integer NOT NULL'),
    name: column<string | null>('text'),
    sealed: column<Buffer | null>('bytea'),
    flag: column<boolean | null>('boolean'),
    amount: column<number | null>('bigint'),
    at: column<Date | null>('timestamptz'),
    doc: column<unknown>('jsonb'),
    tags: column<string[] | null>('text[]'),
  },
  { primaryKey: ['id'] },
);

// Text as events carry it: any code point but NUL (which PostgreSQL's text cannot hold), so tabs,
// newlines, backslashes, quotes, right-to-left marks and Thai combining marks too.
const text = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replaceAll('\u0000', ''));
const row = (id: number) =>
  fc.record({
    id: fc.constant(id),
    name: fc.option(text),
    sealed: fc.option(fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes))),
    flag: fc.option(fc.boolean()),
    amount: fc.option(fc.maxSafeInteger()),
    at: fc.option(
      fc
        .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    ),
    doc: fc.option(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 })),
    tags: fc.option(fc.array(fc.option(text), { maxLength: 4 })),
  });
const rows = fc
  .integer({ min: 1, max: 12 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => row(i))))
  .map((list) => list as StoredRowOf<typeof things>[]);

/**
 * A rebuild writes its scan attempts with copyRows: by COPY on PostgreSQL (Sql.copyIn), by an
 * INSERT on PGlite. Whatever the rows hold, the table must end as an INSERT of them leaves it.
 */
describe.each(testDatabases())('rows by COPY on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    for (const schema of ['by_copy', 'by_insert']) {
      await db.query(`CREATE SCHEMA ${schema}`);
      await createTable(db, schema, things);
    }
  });
  afterAll(() => drop());

  it('stores what an INSERT of the same rows stores, whatever the text, bytes, JSON or arrays hold', async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (batch) => {
        await db.transaction(async (tx) => {
          expect(tx.copyIn !== undefined).toBe(database.name === 'postgres');
          await tx.query('TRUNCATE by_copy.things, by_insert.things');
          await copyRows(tx, 'by_copy', things, batch);
          await tx.query(...insertRows('by_insert', things, batch));
        });
        const read = (schema: string) => db.query(`SELECT * FROM ${schema}.things ORDER BY id`);
        expect(await read('by_copy')).toEqual(await read('by_insert'));
      }),
      { numRuns: 60 },
    );
  });

  it("stores each value as it was given, both ways (in the portal's text forms, not the drivers')", async () => {
    const utf8 = (t: string | null) => (t === null ? null : Buffer.from(t).toString());
    await fc.assert(
      fc.asyncProperty(rows, async (batch) => {
        await db.query('TRUNCATE by_copy.things, by_insert.things');
        await copyRows(db, 'by_copy', things, batch);
        await db.query(...insertRows('by_insert', things, batch));
        const expected = batch.map((r) => ({
          id: r.id,
          name: utf8(r.name),
          sealed: r.sealed?.toString('hex') ?? null,
          flag: r.flag,
          amount: r.amount === null ? null : String(r.amount),
          at: r.at,
          doc: r.doc === null ? null : JSON.parse(utf8(JSON.stringify(r.doc))!),
          tags: r.tags?.map(utf8) ?? null,
        }));
        for (const schema of ['by_copy', 'by_insert']) {
          const stored = await db.query(
            `SELECT id, name, encode(sealed, 'hex') AS sealed, flag, amount::text AS amount,
                    to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, doc, tags
               FROM ${schema}.things ORDER BY id`,
          );
          expect(stored).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('fails a COPY the table refuses with its error, rolls back and leaves the connection usable', async () => {
    const batch = fc.sample(rows, 1)[0]!;
    await db.query('TRUNCATE by_copy.things');
    const twice = [...batch, batch[0]!]; // the first row's key again
    for (let attempt = 0; attempt < 25; attempt++) {
      // More attempts than the pool has connections: a connection left mid-COPY would be met again.
      await expect(db.transaction((tx) => copyRows(tx, 'by_copy', things, twice))).rejects.toThrow(/duplicate key/);
    }
    expect(await db.query(`SELECT count(*)::int AS n FROM by_copy.things`)).toEqual([{ n: 0 }]);
    await db.transaction((tx) => copyRows(tx, 'by_copy', things, batch));
    expect(await db.query(`SELECT count(*)::int AS n FROM by_copy.things`)).toEqual([{ n: batch.length }]);
  });

  it('falls back to an INSERT given a connection that cannot COPY', async () => {
    const batch = fc.sample(rows, 1)[0]!;
    await db.query('TRUNCATE by_copy.things');
    await copyRows({ query: (sql, params) => db.query(sql, params) }, 'by_copy', things, batch);
    expect(await db.query(`SELECT count(*)::int AS n FROM by_copy.things`)).toEqual([{ n: batch.length }]);
  });
});
