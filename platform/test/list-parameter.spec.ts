import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listParameter } from '../src/store/list-parameter.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

describe.each(testDatabases())('a list of values as parameters on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await db.query(`CREATE TABLE listed (id text PRIMARY KEY)`);
    await db.query(`INSERT INTO listed SELECT 'id-' || n FROM generate_series(0, 39) AS n`);
  });
  afterAll(() => drop());

  it('matches exactly the values given, whatever their number, after other parameters, and nothing for none', async () => {
    for (const count of [0, 1, 2, 4, 5, 16, 17, 40]) {
      const ids = Array.from({ length: count }, (_, n) => `id-${39 - n}`);
      const list = listParameter(ids, 2);
      const rows = await db.query<{ id: string }>(
        `SELECT id FROM listed WHERE id = ANY(${list.sql}) AND id <> $1 ORDER BY id`,
        ['none', ...list.params],
      );
      expect(rows.map(({ id }) => id)).toEqual([...ids].sort());
      // The padding counts nothing either.
      const alone = listParameter(ids, 1);
      const [counted] = await db.query<{ n: number }>(
        `SELECT count(id)::int AS n FROM unnest(${alone.sql}) AS id`,
        alone.params,
      );
      expect(counted!.n).toBe(count);
    }
  });

  it('serves every list with one of three statements: 1 or 4 values, or one array beyond', () => {
    const texts = new Set(
      [0, 1, 2, 3, 4, 5, 9, 16, 17, 100].map((count) => listParameter(Array(count).fill('x'), 1).sql),
    );
    expect([...texts]).toEqual([
      'ARRAY[$1]::text[]',
      `ARRAY[${[1, 2, 3, 4].map((n) => `$${n}`).join(', ')}]::text[]`,
      '$1::text[]',
    ]);
  });
});
