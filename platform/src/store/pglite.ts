import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import type { SqlDatabase } from './sql.ts';

/**
 * PostgreSQL in this process (WebAssembly), for the embedded default: `dataDir` is a folder, or
 * undefined for an in-memory database. One connection, so transactions run one at a time.
 */
export async function openPglite(dataDir?: string): Promise<SqlDatabase> {
  // pgcrypto: the read models' personal columns are opened in SQL (../read-models/sealed-columns.ts).
  const db = await PGlite.create({ dataDir, extensions: { pgcrypto } });
  return {
    kind: 'pglite',
    query: async (text, params) => (await db.query(text, params as unknown[])).rows as never[],
    prepared: async (_name, text, params) => (await db.query(text, params as unknown[])).rows as never[],
    transaction: (work) =>
      db.transaction((tx) =>
        work({ query: async (text, params) => (await tx.query(text, params as unknown[])).rows as never[] }),
      ),
    async listen(channel, onNotify) {
      const unlisten = await db.listen(channel, onNotify);
      return unlisten;
    },
    async useSessionSetting(name, value) {
      await db.query(`SELECT set_config($1, $2, false)`, [name, value]);
    },
    close: () => db.close(),
  };
}
