import { afterAll, beforeAll } from 'vitest';
import { unlockReadModels } from '../read-models/sealed-columns.ts';
import { createEventStoreSchema } from '../store/schema.ts';
import type { SqlDatabase } from '../store/sql.ts';
import { postgresDatabase } from './databases.ts';

/**
 * For a suite that needs PostgreSQL itself (several connections, processes or threads): a fresh
 * database with the log's tables, opened before the suite's tests and dropped after them; read
 * through the views with their sealed columns opened when `unlocked`. Call it in the describe;
 * read `db` and `url` in the tests.
 */
export function freshPostgres(options: { unlocked?: boolean } = {}): {
  readonly db: SqlDatabase;
  readonly url: string;
} {
  const suite = {} as { db: SqlDatabase; url: string };
  let drop = async () => {};
  beforeAll(async () => {
    const opened = await postgresDatabase.open();
    drop = opened.drop;
    suite.db = opened.db;
    suite.url = opened.url!;
    await createEventStoreSchema(opened.db);
    if (options.unlocked) await unlockReadModels(opened.db);
  });
  afterAll(() => drop());
  return suite;
}
