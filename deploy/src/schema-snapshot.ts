import { randomBytes } from 'node:crypto';
import { prepareCommandTables } from '@portal/command-api/app';
import { useDataKeys } from '@portal/platform/privacy/data-key';
import { createEventStore } from '@portal/platform/store/event-store';
import { localPglite } from '@portal/platform/store/pglite-local';
import { makeSnapshotFolder } from '@portal/platform/store/pglite-snapshot';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { projections } from '@portal/projector/projections/index';
import { startProjector } from '@portal/projector/projector';

/**
 * The only rows a new database's preparation leaves, all of them the code's own: the read models'
 * checkpoint (at the log's start) and each projection's version. Anything else (a key, an event,
 * an account) would be one installation's, and is never put in a snapshot every new one starts from.
 */
const ROWS_OF_THE_CODE: Record<string, number> = { 'rm.checkpoints': 1, 'rm.projection_versions': projections.length };

/**
 * Makes the schema snapshot at `path`: a new embedded database as the portal's start prepares it
 * (the log's tables, the command side's, the read models' tables, functions and views), before
 * anything of an installation is in it, as a data folder a new database's is then copied from
 * (platform/src/store/pglite-snapshot.ts, createPglite). The preparation makes the read models'
 * key as it goes, sealed with a key-encryption key made here and forgotten: that key is deleted,
 * and its table rewritten so that not even its dead row is in the files. That key is this
 * process's data key from then on (useDataKeys): run it in a process of its own (npm ci's
 * postinstall), or give the process its keys back after.
 */
export async function makeSchemaSnapshot(path: string): Promise<void> {
  useDataKeys({ current: randomBytes(32), previous: [] });
  await makeSnapshotFolder(path, async (pglite) => {
    const db = localPglite(pglite, () => {}).database;
    await createEventStoreSchema(db);
    await prepareCommandTables(db);
    const projector = await startProjector({ source: createEventStore(db), target: db, projections });
    await projector.stop();
    await db.query(`DELETE FROM privacy.subject_keys`);
    await db.query(`VACUUM FULL privacy.subject_keys`);
    const rows = await rowsByTable(db);
    if (JSON.stringify(rows) !== JSON.stringify(ROWS_OF_THE_CODE)) {
      throw new Error(`a new database's preparation left rows of its own: ${JSON.stringify(rows)}`);
    }
  });
}

/** How many rows each of the portal's tables holds, for those that hold any. */
export async function rowsByTable(db: Pick<SqlDatabase, 'query'>): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>(
    `SELECT schemaname || '.' || relname AS name FROM pg_stat_user_tables ORDER BY 1`,
  );
  const rows: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${name}`);
    if (row!.n > 0) rows[name] = row!.n;
  }
  return rows;
}
