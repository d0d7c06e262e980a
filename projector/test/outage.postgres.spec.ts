import { describe, expect, it } from 'vitest';
import { createEventStore } from '@portal/platform/store/event-store';
import { connectPostgres } from '@portal/platform/store/postgres';
import { memberRegisteredEvent } from '@portal/platform/testing/accounts';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { freshPostgres } from '@portal/platform/testing/postgres-suite';
import { projections } from '../src/projections/index.ts';
import { startProjector } from '../src/projector.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`\n!!! ${skip}\n`);

describe.skipIf(skip !== null)('projector through a database outage (PostgreSQL)', () => {
  // Reads the views as the query side does: its killed connections come back holding the key.
  const postgres = freshPostgres({ unlocked: true });

  it('reconnects, LISTEN included, and resumes by itself after its connections are killed', async () => {
    const { db, url } = postgres;
    const projectorDb = connectPostgres({ connectionString: url, onError: () => {} });
    const store = createEventStore(db);
    const projector = await startProjector({
      source: createEventStore(projectorDb),
      target: projectorDb,
      projections,
      pollMs: 60_000, // only NOTIFY can wake it quickly: proves LISTEN came back
      onError: () => {},
    });
    try {
      await store.append('account-outage-1', [await memberRegisteredEvent(db, 'outage-1', { username: 'outage1' })], {
        expectedRevision: 'no_stream',
      });
      await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 3000 }).toBe(0);

      const dbName = new URL(url).pathname.slice(1);
      await db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [dbName],
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await store.append('account-outage-2', [await memberRegisteredEvent(db, 'outage-2', { username: 'outage2' })], {
        expectedRevision: 'no_stream',
      });
      await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 8000 }).toBe(0);
      const names = await db.query<{ username: string }>('SELECT username FROM rm.accounts ORDER BY username');
      expect(names.map((row) => row.username)).toEqual(['outage1', 'outage2']);
    } finally {
      await projector.stop();
      await projectorDb.close();
    }
  });
});
