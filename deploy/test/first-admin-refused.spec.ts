import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { createEventStore } from '@portal/platform/store/event-store';
import { testDatabases, testUploadsDir } from '@portal/platform/testing/databases';
import { startPortal } from '../src/portal.ts';

/**
 * The first admin is made while the projector starts (startPortal): a first admin the rules
 * refuse still stops the start with the setting's name, and the projector it had started is
 * stopped with it, following the log no more.
 */
describe.each(testDatabases())('a first admin the rules refuse, on $name', (database) => {
  it('stops the start with the setting named, and leaves no projector following the log', async () => {
    const { db, drop } = await database.open();
    try {
      const start = startPortal({
        db,
        sessionSecret: 'first-admin-refused-secret-long-enough',
        admin: { username: 'admin01', password: 'short' },
        uploadsDir: testUploadsDir(),
        mail: { from: 'Course Portal <no-reply@course-portal.invalid>' },
        kafka: null,
      });
      await expect(start).rejects.toThrow(/^ADMIN_PASSWORD: /);
      const before = await readCheckpoint(db, 'rm');
      await createEventStore(db).append('unrelated-1', [{ type: 'Unrelated', schemaVersion: 1, data: {} }], {
        expectedRevision: 'no_stream',
      });
      // A projector left running applies an append within milliseconds (its batches gather 5 ms).
      await sleep(500);
      expect(await readCheckpoint(db, 'rm')).toEqual(before);
    } finally {
      await drop();
    }
  }, 60_000);
});
