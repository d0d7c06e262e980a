import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import type { EventStore } from '@portal/platform/store/port';
import { sqlState, type SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, pgliteDatabase } from '@portal/platform/testing/databases';
import { rebuildWhereTheDatabaseIs } from '../src/thread/rebuild-beside.ts';
import { buildFromLog, readModelRows } from '../src/testing/read-model-copies.ts';
import { step, story } from './course-stories.ts';

/**
 * `npm run rebuild` on the embedded database runs the rebuild in the database's own thread
 * (rebuild-beside.ts): it must build there what a projector following the log built, tell its
 * progress here, and fail here with the database's own reason.
 */
describe('a rebuild beside the embedded database', () => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(pgliteDatabase));
    await unlockReadModels(db);
    const stories = fc.sample(fc.array(step, { minLength: 5, maxLength: 30 }), { seed: 11, numRuns: 8 });
    for (const [i, steps] of stories.entries()) {
      for (const [streamId, event] of await story(db, `beside${i}`, steps)) {
        await store.append(streamId, [event], { expectedRevision: 'any' });
      }
    }
    await buildFromLog(db, store, 'rm');
  });
  afterAll(() => drop());

  it('rebuilds in its thread the read models a projector built, telling the progress to the end', async () => {
    const live = await readModelRows(db, 'rm');
    const progress: number[] = [];
    const { events } = await rebuildWhereTheDatabaseIs(db, { onProgress: (done) => progress.push(done) });
    expect(events).toBeGreaterThan(40);
    expect(progress.at(-1)).toBe(events);
    expect(await readModelRows(db, 'rm')).toEqual(live);
  });

  it("fails with the database's reason, and the read models stay as they were", async () => {
    const live = await readModelRows(db, 'rm');
    await db.query(`ALTER TABLE es.events RENAME TO events_away`);
    try {
      const failure = await rebuildWhereTheDatabaseIs(db).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(sqlState(failure)).toBe('42P01');
    } finally {
      await db.query(`ALTER TABLE es.events_away RENAME TO events`);
    }
    expect(await readModelRows(db, 'rm')).toEqual(live);
  });
});
