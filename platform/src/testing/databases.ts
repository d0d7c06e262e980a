import pg from 'pg';
import { createEventStore } from '../store/event-store.ts';
import { connectPostgres } from '../store/postgres.ts';
import { createEventStoreSchema } from '../store/schema.ts';
import { openPglite } from '../store/pglite.ts';
import type { SqlDatabase } from '../store/sql.ts';

/**
 * The databases integration tests run against: PGlite always, PostgreSQL when DATABASE_URL is
 * set. Each `open()` gives a fresh, empty database and a way to drop it.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: SqlDatabase; url?: string; drop(): Promise<void> }>;
}

const postgresUrl = process.env.DATABASE_URL;

export function postgresSkipReason(): string | null {
  if (postgresUrl) return null;
  const reason = 'DATABASE_URL is not set: the PostgreSQL runs of these tests are SKIPPED (PGlite only).';
  if (process.env.CI) throw new Error(`${reason} CI must run them all.`);
  return reason;
}

export const pgliteDatabase: TestDatabase = {
  name: 'pglite',
  async open() {
    const db = await openPglite();
    return { db, drop: () => db.close() };
  },
};

export const postgresDatabase: TestDatabase = {
  name: 'postgres',
  async open() {
    if (!postgresUrl) throw new Error('DATABASE_URL is not set');
    const name = `portal_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const db = connectPostgres({ connectionString: url.toString(), max: 20 });
    return {
      db,
      url: url.toString(),
      async drop() {
        await db.close();
        const cleanup = new pg.Client({ connectionString: postgresUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  },
};

/** Every database the suite should run against here, saying loudly which are skipped. */
export function testDatabases(): TestDatabase[] {
  const skipped = postgresSkipReason();
  if (skipped) {
    console.warn(`\n!!! ${skipped}\n`);
    return [pgliteDatabase];
  }
  return [pgliteDatabase, postgresDatabase];
}

export { testUploadsDir } from './uploads-dir.ts';

/** A fresh test database with the event log's tables, and the store over it. */
export async function openEventStore(database: TestDatabase) {
  const { db, drop } = await database.open();
  await createEventStoreSchema(db);
  return { db, store: createEventStore(db), drop };
}
