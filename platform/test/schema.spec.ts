import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStoreSchema } from '../src/store/schema.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

/** Services started together on a fresh database all create their tables at once. */
describe.each(testDatabases())('creating the schema on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await database.open()));
  afterAll(() => drop());

  it('lets several processes create the event log at the same moment', async () => {
    await expect(Promise.all(Array.from({ length: 6 }, () => createEventStoreSchema(db)))).resolves.toBeDefined();
    const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM es.events`);
    expect(row!.n).toBe('0');
  });
});
