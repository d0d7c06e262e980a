import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceWhenChanged } from '../src/store/replace-when-changed.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

const answering = (n: number) =>
  `CREATE OR REPLACE FUNCTION rwc_test.answer(x integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT ${n} + x $$`;
/** A view of `more` columns after `one` (CREATE OR REPLACE VIEW may add columns, not rename them). */
const viewOf = (...more: string[]) =>
  `CREATE OR REPLACE VIEW rwc_test.shown AS SELECT ${['one', ...more].map((name, i) => `${i + 1} AS ${name}`).join(', ')}`;

/**
 * Every start replaced the portal's functions and views (es.append_batch, the read models' views),
 * as costly as making them: now only when missing or made from another text. A changed text must
 * always be applied, and an unchanged one never run again.
 */
describe.each(testDatabases())('a function or view replaced only when its text changed, on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await db.query(`CREATE SCHEMA IF NOT EXISTS rwc_test`);
  });
  afterAll(() => drop());
  const answer = async () => (await db.query<{ n: number }>(`SELECT rwc_test.answer(1) AS n`))[0]!.n;

  it('makes a missing function, skips the same text, and applies a changed one', async () => {
    await replaceWhenChanged(db, 'FUNCTION rwc_test.answer(integer)', answering(40));
    expect(await answer()).toBe(41);
    // Changed behind its back (its comment kept): the same text again is not run...
    await db.query(answering(100));
    await replaceWhenChanged(db, 'FUNCTION rwc_test.answer(integer)', answering(40));
    expect(await answer()).toBe(101);
    // ...a new text is, and so is any text once the function is gone.
    await replaceWhenChanged(db, 'FUNCTION rwc_test.answer(integer)', answering(7));
    expect(await answer()).toBe(8);
    await db.query(`DROP FUNCTION rwc_test.answer(integer)`);
    await replaceWhenChanged(db, 'FUNCTION rwc_test.answer(integer)', answering(7));
    expect(await answer()).toBe(8);
  });

  it('makes a missing view, skips the same text, and applies a changed one', async () => {
    const columns = async () =>
      (
        await db.query<{ name: string }>(
          `SELECT attname AS name FROM pg_attribute WHERE attrelid = 'rwc_test.shown'::regclass AND attnum > 0 ORDER BY attnum`,
        )
      ).map((row) => row.name);
    await replaceWhenChanged(db, 'VIEW rwc_test.shown', viewOf('two'));
    expect(await columns()).toEqual(['one', 'two']);
    await db.query(viewOf('two', 'behind'));
    await replaceWhenChanged(db, 'VIEW rwc_test.shown', viewOf('two'));
    expect(await columns()).toEqual(['one', 'two', 'behind']);
    await db.query(`DROP VIEW rwc_test.shown`);
    await replaceWhenChanged(db, 'VIEW rwc_test.shown', viewOf('two'));
    expect(await columns()).toEqual(['one', 'two']);
    await replaceWhenChanged(db, 'VIEW rwc_test.shown', viewOf('two', 'three'));
    expect(await columns()).toEqual(['one', 'two', 'three']);
  });
});
