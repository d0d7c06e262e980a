import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/store/postgres.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { postgresDatabase, postgresSkipReason } from '../src/testing/databases.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the kept statements' test needs it)\n`);

/**
 * PostgreSQL's connections keep the statements run on them prepared (store/kept-statements.ts):
 * parsed once per connection, at most 256 of them, and never answering in a shape their tables
 * no longer have. One connection here, so that what it keeps can be read from the server.
 */
describe.skipIf(skipped)('statements kept prepared on a PostgreSQL connection', () => {
  let one: SqlDatabase;
  let other: SqlDatabase;
  let drop: () => Promise<void>;
  const kept = () =>
    one.query<{ statement: string; calls: number }>(
      `SELECT statement, (generic_plans + custom_plans)::int AS calls FROM pg_prepared_statements ORDER BY statement`,
    );

  beforeAll(async () => {
    const opened = await postgresDatabase.open();
    ({ db: other, drop } = opened);
    one = connectPostgres({ connectionString: opened.url!, max: 1 });
    await one.query(`CREATE TABLE kept_rows (id int PRIMARY KEY, a text)`);
    await one.query(`INSERT INTO kept_rows VALUES (1, 'a'), (2, 'b')`);
  });
  afterAll(async () => {
    await one?.close();
    await drop?.();
  });

  it('parses a statement once on its connection, in and out of transactions, and runs it there each time', async () => {
    const text = `SELECT a FROM kept_rows WHERE id = $1`;
    for (let i = 0; i < 5; i++) expect(await one.query(text, [1])).toEqual([{ a: 'a' }]);
    await one.transaction(async (tx) => expect(await tx.query(text, [2])).toEqual([{ a: 'b' }]));
    expect((await kept()).filter(({ statement }) => statement === text)).toEqual([{ statement: text, calls: 6 }]);
  });

  it('keeps at most 256 on a connection, closing the least recently used in the database too', async () => {
    for (let i = 0; i < 300; i++) await one.query(`SELECT $1::int + ${i} AS n`, [i]);
    const texts = (await kept()).map(({ statement }) => statement);
    expect(texts.length).toBeLessThanOrEqual(256);
    expect(texts).toContain(`SELECT $1::int + 299 AS n`);
    expect(texts).not.toContain(`SELECT $1::int + 0 AS n`);
    expect(await one.query(`SELECT $1::int + 0 AS n`, [1])).toEqual([{ n: 1 }]);
  });

  it('closes only what it prepared: a statement refused in a broken transaction, then forgotten, costs nothing later', async () => {
    await expect(
      one.transaction(async (tx) => {
        await tx.query(`SELECT 1 / $1::int AS broken`, [0]).catch(() => {});
        // Refused before it is prepared: the transaction is broken.
        await tx.query(`SELECT a FROM kept_rows WHERE id = $1 AND a IS NOT NULL`, [1]);
      }),
    ).rejects.toThrow(/aborted/);
    await one.query(`CREATE TABLE kept_other (id int)`); // forgets every statement kept
    expect(await one.query(`SELECT a FROM kept_rows WHERE id = $1`, [2])).toEqual([{ a: 'b' }]);
    expect(await one.query(`SELECT a FROM kept_rows WHERE id = $1 AND a IS NOT NULL`, [1])).toEqual([{ a: 'a' }]);
  });

  it("answers in the table's new shape, without refusing, after another connection changed it", async () => {
    const text = `SELECT * FROM kept_rows WHERE id = $1`;
    for (let i = 0; i < 6; i++) await one.query(text, [1]);
    await other.query(`ALTER TABLE kept_rows ADD COLUMN b int DEFAULT 7`);
    expect(await one.query(text, [1])).toEqual([{ id: 1, a: 'a', b: 7 }]);
    // In a transaction the refusal aborts it (its work may not be run twice): once, then prepared anew.
    await other.query(`ALTER TABLE kept_rows DROP COLUMN b`);
    await expect(one.transaction((tx) => tx.query(text, [1]))).rejects.toThrow(/cached plan/);
    expect(await one.transaction((tx) => tx.query(text, [1]))).toEqual([{ id: 1, a: 'a' }]);
  });
});
