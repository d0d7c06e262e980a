import { PGlite } from '@electric-sql/pglite';
import type { SqlDatabase } from './sql.ts';

/**
 * PostgreSQL in this process (WebAssembly), for the embedded default: `dataDir` is a folder, or
 * undefined for an in-memory database. One connection, so transactions run one at a time.
 */
export async function openPglite(dataDir?: string): Promise<SqlDatabase> {
  const db = await PGlite.create(dataDir);
  return {
    kind: 'pglite',
    query: async (text, params) => (await db.query(text, params as unknown[])).rows as never[],
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: async (text, params) => (await tx.query(text, params as unknown[])).rows as never[] }),
      ),
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, onNotify);
      return unlisten;
    },
    close: () => db.close(),
  };
}
