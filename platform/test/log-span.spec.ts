import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllAfter } from '../src/store/event-store.ts';
import { type LogSpan, readLogSpan } from '../src/store/log-span.ts';
import { type Checkpoint, type EventStore, START, checkpointOf } from '../src/store/port.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { openEventStore, testDatabases } from '../src/testing/databases.ts';
import { holdTransactionOpen } from '../src/testing/open-transaction.ts';

/**
 * A rebuild reads the log a span at a time when some types are written in the database
 * (log-span.ts): what it is given must be the log itself, in its order, each event once, the
 * skipped ones counted, and nothing behind a transaction still running.
 */
describe.each(testDatabases())('the log read in spans on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
  });
  afterAll(() => drop());

  const event = (type: string, courseId: string) => ({ type, schemaVersion: 1, data: { courseId } });

  async function allSpans(from: Checkpoint, limits: Parameters<typeof readLogSpan>[2]) {
    const spans: LogSpan[] = [];
    for (let after = from; ;) {
      const span = await readLogSpan(db, after, limits);
      if (!span.end) return spans;
      spans.push(span);
      after = span.end;
    }
  }

  it('gives the events not skipped once each, in order, in spans within both limits, counting the skipped', async () => {
    // Scans (skipped) in runs between the events read whole.
    for (let i = 0; i < 40; i++) {
      const type = i % 5 === 4 ? 'CourseCreated' : 'AttendanceScanned';
      await store.append(`s-${i}`, [event(type, `c${i % 3}`)], { expectedRevision: 'no_stream' });
    }
    const log = await readAllAfter(db, START, 1000);
    const spans = await allSpans(START, { span: 7, most: 3, skipping: ['AttendanceScanned'] });

    const given = spans.flatMap((span) => span.events);
    expect(given).toEqual(log.filter((e) => e.type !== 'AttendanceScanned'));
    expect(spans.reduce((sum, span) => sum + span.spanned, 0)).toBe(log.length);
    for (const span of spans) {
      expect(span.spanned).toBeLessThanOrEqual(7);
      expect(span.events.length).toBeLessThanOrEqual(3);
    }
    // Each span ends at its last event, skipped or not: one after another, they cover the log.
    let at = 0;
    for (const span of spans) {
      at += span.spanned;
      expect(span.end).toEqual(checkpointOf(log[at - 1]!));
    }
    // A span is cut after its most events not skipped, not at its length.
    const [first] = await allSpans(START, { span: 40, most: 2, skipping: ['AttendanceScanned'] });
    expect(first!.events).toHaveLength(2);
    expect(first!.end).toEqual(checkpointOf(first!.events[1]!));
  });

  // Only where transactions run side by side (PGlite has one connection).
  if (database.name === 'postgres') {
    it('holds back what was committed after a transaction still running began', async () => {
      const before = await readAllAfter(db, START, 1000);
      const blocker = await holdTransactionOpen(db);
      await store.append('held-1', [event('CourseCreated', 'c9')], { expectedRevision: 'no_stream' });
      await store.append('held-2', [event('AttendanceScanned', 'c9')], { expectedRevision: 'no_stream' });
      const limits = { span: 100, most: 100, skipping: ['AttendanceScanned'] };
      const held = await allSpans(checkpointOf(before.at(-1)!), limits);
      expect(held).toEqual([]);
      await blocker.release();
      const read = await allSpans(checkpointOf(before.at(-1)!), limits);
      expect(read.flatMap((span) => span.events.map((e) => e.streamId))).toEqual(['held-1']);
      expect(read.reduce((sum, span) => sum + span.spanned, 0)).toBe(2);
    });
  }
});
