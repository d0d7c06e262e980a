import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectPostgres } from './postgres.ts';
import { openPglite } from './pglite.ts';
import type { SqlDatabase } from './sql.ts';

export interface DatabaseConfig {
  /** PostgreSQL; when unset, PGlite under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  onError?: (error: Error) => void;
}

/** The database every service uses: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export function openDatabase(config: DatabaseConfig): Promise<SqlDatabase> {
  if (config.databaseUrl) {
    return Promise.resolve(connectPostgres({ connectionString: config.databaseUrl, onError: config.onError }));
  }
  return openLockedPglite(config.dataDir);
}

/**
 * PGlite's files may be opened by one process only: a lock file with our pid keeps a second
 * process (a rebuild while the portal runs, a second `npm start`) from corrupting them.
 */
async function openLockedPglite(dataDir: string): Promise<SqlDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, 'pglite.lock');
  const holder = readLock(lock);
  if (holder !== null && holder !== process.pid && isAlive(holder)) {
    throw new Error(`The embedded database in ${dataDir} is in use by process ${holder}. Stop it first.`);
  }
  writeFileSync(lock, String(process.pid));
  const db = await openPglite(join(dataDir, 'pglite'));
  return {
    ...db,
    async close() {
      await db.close();
      rmSync(lock, { force: true });
    },
  };
}

function readLock(path: string): number | null {
  try {
    return Number(readFileSync(path, 'utf8')) || null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export const databaseConfigFromEnv = (): DatabaseConfig => ({
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATA_DIR || './data',
});
