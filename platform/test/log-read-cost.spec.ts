import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAG_BEHIND, READ_LOG, createEventStore } from '../src/store/event-store.ts';
import { START, checkpointOf } from '../src/store/port.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { openEventStore, testDatabases } from '../src/testing/databases.ts';

/** A batch's rows fill a few of the log's pages; the rest of this log, dozens of its index's. */
const LOG = 20_000;
const BATCH = 100;

/** The plan's root: its buffer counts include every node's below it. */
interface PlanRoot {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

/**
 * A projector or the relay catching up on a long log (after an upgrade, after being stopped)
 * reads it batch after batch: each read must cost the batch, not the rest of the log, or the
 * catch-up grows with the square of the log (it once took PostgreSQL through every later event
 * on each read, to see whether any was held back).
 */
describe.each(testDatabases())('reading a batch of a long log on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openEventStore(database));
    // A long log, written as a generator would (in a few large transactions), its statistics known.
    for (let from = 0; from < LOG; from += 5000) {
      await db.query(
        `INSERT INTO es.events (stream_id, stream_revision, type, schema_version, data)
         SELECT 'long-' || n, 0, 'Counted', 1, jsonb_build_object('n', n) FROM generate_series($1::int, $2::int) n`,
        [from, from + 4999],
      );
    }
    await db.query('ANALYZE es.events');
  }, 60_000);
  afterAll(() => drop());

  it('looks at the rows of the batch, not at the events after it, from the start and from the middle', async () => {
    const store = createEventStore(db);
    // Readable once no transaction of the cluster begun before it is still running (other tests').
    await expect.poll(async () => (await store.readAll(START, LOG)).length, { timeout: 10_000 }).toBe(LOG);
    const middle = (await store.readAll(START, LOG / 2)).at(-1)!;
    for (const from of [START, checkpointOf(middle)]) {
      // With "held back?" asked, as a subscription asks it on every read.
      const [explained] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanRoot }] | string }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${READ_LOG}`,
        [from.transactionId, from.position, BATCH, true],
      );
      const plan = explained!['QUERY PLAN'];
      const root = (typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanRoot }]) : plan)[0].Plan;
      // Pages read (from memory or disk): the batch's few and the last event's, whatever follows.
      expect(root['Shared Hit Blocks'] + root['Shared Read Blocks']).toBeLessThan(20);
    }
  });

  it('says how far behind the start is from the first events counted, not from all of them', async () => {
    // A health check asks it while a projector catches up: it counts up to its limit, then estimates.
    const store = createEventStore(db);
    await expect.poll(async () => (await store.lagBehind(START, BATCH)).events, { timeout: 10_000 }).toBe(LOG);
    const [explained] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanRoot }] | string }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${LAG_BEHIND}`,
      [START.transactionId, START.position, BATCH],
    );
    const plan = explained!['QUERY PLAN'];
    const root = (typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanRoot }]) : plan)[0].Plan;
    expect(root['Shared Hit Blocks'] + root['Shared Read Blocks']).toBeLessThan(20);
  });
});
