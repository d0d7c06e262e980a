/**
 * How fast the event log appends and how fast a reader (the projector) follows it, on PGlite and,
 * when DATABASE_URL is set, PostgreSQL. Prints figures; asserts nothing. `npm run bench`.
 */
import { performance } from 'node:perf_hooks';
import type { NewEvent } from '@portal/contracts/envelope';
import { createEventStore } from '@portal/platform/store/event-store';
import { START } from '@portal/platform/store/port';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { type TestDatabase, pgliteDatabase, postgresDatabase } from '@portal/platform/testing/databases';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 2000);
const WRITERS = 8;

const event = (n: number): NewEvent => ({
  type: 'BenchEvent',
  schemaVersion: 1,
  data: { n, note: 'a scan of a member by a partner' },
});

async function run(database: TestDatabase) {
  const { db, drop } = await database.open();
  try {
    await createEventStoreSchema(db);
    const store = createEventStore(db);

    let started = performance.now();
    for (let i = 0; i < APPENDS; i++)
      await store.append(`bench-single-${i}`, [event(i)], { expectedRevision: 'no_stream' });
    const single = APPENDS / ((performance.now() - started) / 1000);

    started = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let i = 0; i < APPENDS / WRITERS; i++) {
          await store.append(`bench-${writer}-${i}`, [event(i)], { expectedRevision: 'no_stream' });
        }
      }),
    );
    const concurrent = APPENDS / ((performance.now() - started) / 1000);

    started = performance.now();
    let read = 0;
    for (let after = START; ;) {
      const batch = await store.readAll(after, 500);
      if (batch.length === 0) break;
      read += batch.length;
      const last = batch.at(-1)!;
      after = { transactionId: last.transactionId, position: last.position };
    }
    const reading = read / ((performance.now() - started) / 1000);

    if (read !== 2 * APPENDS) {
      console.error(`${database.name}: the reader saw ${read} of ${2 * APPENDS} events: the log's order is broken`);
      process.exitCode = 1;
    }
    console.log(
      `${database.name.padEnd(9)} append 1 writer: ${single.toFixed(0).padStart(6)} events/s | ` +
        `append ${WRITERS} writers: ${concurrent.toFixed(0).padStart(6)} events/s | ` +
        `read all (batches of 500): ${reading.toFixed(0).padStart(7)} events/s (${read} events)`,
    );
  } finally {
    await drop();
  }
}

console.log(`Event store benchmark: ${APPENDS} appends per run, one event per append, each in its own stream`);
await run(pgliteDatabase);
if (process.env.DATABASE_URL) await run(postgresDatabase);
else console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too');
