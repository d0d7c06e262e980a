import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@portal/contracts/envelope';
import { readAllAfter } from '@portal/platform/store/event-store';
import { type EventStore, START, checkpointOf } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import { readLogRange } from '../src/log-range.ts';

/**
 * A rebuild lane that writes in the database gives `apply` a span's events of its types and its
 * share of the courses when the statement is not sure of them (log-range.ts): the shares must
 * cover the range once, a course's events all in one.
 */
describe.each(testDatabases())('a range of the log read by share on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
    for (let i = 0; i < 40; i++) {
      const type = i % 5 === 4 ? 'CourseCreated' : 'AttendanceScanned';
      await store.append(`s-${i}`, [{ type, schemaVersion: 1, data: { courseId: `c${i % 3}` } }], {
        expectedRevision: 'no_stream',
      });
    }
  });
  afterAll(() => drop());

  it('reads a range of the log of some types and a share of the courses, the shares covering it once', async () => {
    const log = await readAllAfter(db, START, 1000);
    const upTo = checkpointOf(log.at(-1)!);
    const scans = log.filter((e) => e.type === 'AttendanceScanned');
    const after = checkpointOf(log[4]!);
    const shares = await Promise.all(
      [0, 1, 2].map((index) => readLogRange(db, { after, upTo, share: { of: 3, index } }, ['AttendanceScanned'])),
    );
    const byPosition = (events: StoredEvent[]) => [...events].sort((a, b) => a.position - b.position);
    expect(byPosition(shares.flat())).toEqual(scans.filter((e) => e.position > log[4]!.position));
    // A course's events are all in one share.
    const courseOf = (e: StoredEvent) => (e.data as { courseId: string }).courseId;
    for (const course of ['c0', 'c1', 'c2']) {
      expect(shares.filter((share) => share.some((e) => courseOf(e) === course)).length).toBeLessThanOrEqual(1);
    }
    expect(await readLogRange(db, { after, upTo, share: { of: 1, index: 0 } }, ['AttendanceScanned'])).toEqual(
      scans.filter((e) => e.position > log[4]!.position),
    );
  });
});
