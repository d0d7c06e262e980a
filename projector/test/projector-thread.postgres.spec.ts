import { describe, expect, it } from 'vitest';
import { createEventStore } from '@portal/platform/store/event-store';
import { memberRegisteredEvent } from '@portal/platform/testing/accounts';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { freshPostgres } from '@portal/platform/testing/postgres-suite';
import { PROJECTOR_THREAD_APPLICATION } from '../src/thread/messages.ts';
import { startProjectorThread } from '../src/thread/projector-thread.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`\n!!! ${skip}\n`);

/** The projector in a worker thread of its own (the portal on PostgreSQL runs it so). */
describe.skipIf(skip !== null)('the projector thread (PostgreSQL)', () => {
  const postgres = freshPostgres({ unlocked: true });

  const threadConnections = async () =>
    (
      await postgres.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
        [PROJECTOR_THREAD_APPLICATION],
      )
    )[0]!.n;

  it('follows the log with the data keys of this process, answers for its health, and closes its connections when stopped', async () => {
    const { db, url } = postgres;
    // A minute's poll: only the log's NOTIFY, heard in the thread, wakes it in time.
    const projector = await startProjectorThread({ database: { connectionString: url }, pollMs: 60_000 });
    try {
      const store = createEventStore(db);
      const registered = await memberRegisteredEvent(db, 'thread-1', {
        username: 'thread1',
        fullName: 'Wisp Tallowmere',
      });
      await store.append('account-thread-1', [registered], { expectedRevision: 'no_stream' });
      await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 5000 }).toBe(0);
      // Sealed with the person's key; the thread opened it with the key-encryption key it was given.
      const accounts = await db.query<{ username: string; full_name: string }>(
        `SELECT username, full_name FROM rm.accounts`,
      );
      expect(accounts).toEqual([{ username: 'thread1', full_name: 'Wisp Tallowmere' }]);
      await expect.poll(() => projector.state()).toEqual({ running: true, lastError: null });
      expect(await threadConnections()).toBeGreaterThan(0);
    } finally {
      await projector.stop();
    }
    expect(await threadConnections()).toBe(0);
    // Stopped: not running, nothing wrong, and a question about its health answered, not left hanging.
    expect(projector.state()).toEqual({ running: false, lastError: null });
    await expect(projector.health()).rejects.toThrow(/the projector's thread ended/);
    await projector.stop(); // stopping twice is harmless
  });

  it('refuses to start, saying why, when its database cannot be used', async () => {
    const missing = new URL(postgres.url);
    missing.pathname = '/portal_no_such_database';
    await expect(startProjectorThread({ database: { connectionString: missing.toString() } })).rejects.toThrow(
      /database "portal_no_such_database" does not exist/,
    );
  });
});
