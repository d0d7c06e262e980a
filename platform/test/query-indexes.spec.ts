import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueryIndexes } from '../src/read-models/query-indexes.ts';
import { QUERY_INDEX } from '../src/read-models/table.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

/**
 * A rebuild builds the indexes only queries read after its fill, two at a time on PostgreSQL:
 * when one fails, none is started after it, the rebuild is told only once the other lane has
 * stopped (nothing of it still running), and what was built is whole and marked.
 *
 * The first index is made slow (its expression sleeps on one row), so the failure beside it is
 * known while it is still being built, whatever the machine's speed: with a quick first index,
 * its lane could end it and start the next before the failure's answer came (a slow new
 * connection for the second lane), which is allowed, and the test failed by timing on CI.
 */
describe.each(testDatabases())('query indexes built in lanes on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await db.query(`CREATE SCHEMA qi`);
    await db.query(`CREATE TABLE qi.t (a int, b int, c int)`);
    await db.query(`INSERT INTO qi.t SELECT i, i % 7, i % 11 FROM generate_series(1, 20000) i`);
    await db.query(
      `CREATE FUNCTION qi.slow(x int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$
       BEGIN IF x = 1 THEN PERFORM pg_sleep(0.5); END IF; RETURN x; END $$`,
    );
  });
  afterAll(() => drop());

  it('stops at a failure, throws it once the other lane has stopped, and leaves what it built marked', async () => {
    const index = (name: string, expression: string) => ({
      name,
      table: 't',
      definition: `CREATE INDEX ${name} ON qi.t (${expression})`,
    });
    const started = Date.now();
    const built = buildQueryIndexes(
      db,
      'qi',
      [index('qi_a', '(qi.slow(a))'), index('qi_bad', 'nosuch'), index('qi_b', 'b'), index('qi_c', 'c')],
      2,
    );
    await expect(built).rejects.toThrow(/nosuch/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    const indexes = await db.query<{ name: string; mark: string | null }>(
      `SELECT i.relname AS name, obj_description(i.oid, 'pg_class') AS mark
         FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace
        WHERE n.nspname = 'qi' AND i.relkind = 'i' ORDER BY i.relname`,
    );
    expect(indexes).toEqual([{ name: 'qi_a', mark: QUERY_INDEX }]);
  });
});
