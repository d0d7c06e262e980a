/**
 * The log through Kafka (issue 8), on PostgreSQL with a real broker: `DATABASE_URL` and
 * `KAFKA_BROKERS` must be set (deploy/scripts/kafka.sh start); otherwise it says so and stops.
 *
 * 1. End to end: the scan load (scan-load.ts; BENCH_SCANNERS, 4 by default) with the projector
 *    reading the log directly, then with the relay publishing to Kafka and the projector
 *    consuming it: p50 and p99 from sending a scan to the read models showing it.
 * 2. Throughput: BENCH_KAFKA_EVENTS (20,000) scans already in the log; the relay alone publishes
 *    them (its own rate); then one, and then two, projector processes apply them from a fresh
 *    topic: events per second from the relay's start until the read models' checkpoint reaches
 *    the log's head. Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { AttendanceScanned, attendanceStream } from '@portal/contracts/attendance/attendance.events';
import { kafkaBrokersFromEnv, kafkaClient } from '@portal/platform/distribution/kafka';
import { startRelay } from '@portal/relay/kafka-relay';
import { readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { postgresDatabase } from '@portal/platform/testing/databases';
import { testTopic } from '@portal/platform/testing/kafka';
import { startService } from '@portal/deploy/testing/portal-process';
import { projectorGroup } from '@portal/projector/kafka/kafka-projector';
import { scanLoad } from './scan-load.ts';
import { TEST_DATA_KEY_ENV } from '@portal/platform/testing/data-keys';

const EVENTS = Number(process.env.BENCH_KAFKA_EVENTS ?? 20_000);
const ROUNDS = 50;
const brokers = kafkaBrokersFromEnv();
const id = () => randomBytes(12).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting until ${what}`);
    await sleep(20);
  }
}

/** EVENTS accepted scans over ROUNDS rounds of 10 courses, appended by 8 writers. */
async function fillLog(db: SqlDatabase) {
  const store = createEventStore(db);
  const rounds = Array.from({ length: ROUNDS }, (_, n) => ({ roundId: id(), courseId: `course${n % 10}` }));
  const now = new Date().toISOString();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let n = next++; n < EVENTS; n = next++) {
        const { roundId, courseId } = rounds[n % ROUNDS]!;
        const memberId = id();
        const event = AttendanceScanned.create({
          courseId,
          roundId,
          memberId,
          scannerId: 'bench-scanner',
          deviceId: 'bench-device',
          method: 'typed',
          deviceTime: now,
          serverTime: now,
          lateUploaded: false,
          scannedAt: now,
          late: false,
          walkIn: false,
        });
        await store.append(attendanceStream(roundId, memberId), [event], { expectedRevision: 'no_stream' });
      }
    }),
  );
  const [head] = await db.query<{ position: string }>(`SELECT max(position)::text AS position FROM es.events`);
  return { store, head: Number(head!.position) };
}

async function throughput() {
  const { db, drop, url } = await postgresDatabase.open();
  try {
    await createEventStoreSchema(db);
    process.stdout.write(`  appending ${EVENTS} scans to the log...`);
    let started = performance.now();
    const { store, head } = await fillLog(db);
    console.log(` ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const alone = await startRelay({
      store,
      db,
      kafka: { brokers: brokers!, clientId: 'bench', topic: testTopic('bench') },
    });
    started = performance.now();
    await until('the relay published the log', async () => alone.state().published >= EVENTS);
    const relaySeconds = (performance.now() - started) / 1000;
    await alone.stop();
    console.log(`  relay alone: ${(EVENTS / relaySeconds).toFixed(0)} events/s published`);

    const admin = (await kafkaClient({ brokers: brokers!, clientId: 'bench-admin' })).admin();
    await admin.connect();
    for (const processes of [1, 2]) {
      await db.query(`DROP SCHEMA IF EXISTS rm CASCADE`);
      const topic = testTopic(`bench${processes}`);
      const projectors = await Promise.all(
        Array.from({ length: processes }, (_, n) =>
          startService('projector', {
            DATABASE_URL: url!,
            KAFKA_BROKERS: brokers!.join(','),
            KAFKA_TOPIC: topic,
            PROJECTOR_NAME: `bench-${n}`,
            KAFKA_SESSION_TIMEOUT_MS: '6000',
            // The key the writer (this process) wraps personal-data keys with.
            ...TEST_DATA_KEY_ENV,
          }),
        ),
      );
      // Every projector in the group before the first message, so none joins halfway.
      await until('the projectors formed their group', async () => {
        const { groups } = await admin.describeGroups([projectorGroup(topic)]);
        return groups[0]?.state === 'Stable' && groups[0].members.length === processes;
      });
      started = performance.now();
      const relay = await startRelay({ store, db, kafka: { brokers: brokers!, clientId: 'bench', topic } });
      await until('the read models reached the head', async () => (await readCheckpoint(db, 'rm')).position >= head);
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `  ${processes} projector process${processes > 1 ? 'es' : ''}: ${(EVENTS / seconds).toFixed(0)} events/s (${seconds.toFixed(1)} s)`,
      );
      await relay.stop();
      await Promise.all(projectors.map((projector) => projector.stop()));
    }
    await admin.disconnect();
  } finally {
    await drop();
  }
}

console.log('Kafka benchmark: the log through the relay, the topic and the projectors (PostgreSQL)');
if (!process.env.DATABASE_URL || !brokers) {
  console.log('  skipped: set DATABASE_URL and KAFKA_BROKERS (deploy/scripts/kafka.sh start) to measure Kafka');
} else {
  // Four scanners at once by default: a busy room, without queueing so deep that it hides the
  // path's own delay; BENCH_SCANNERS=16 for a crowded one.
  const scanners = Number(process.env.BENCH_SCANNERS ?? 4);
  await scanLoad(postgresDatabase, 'direct (no Kafka)', { scanners });
  await scanLoad(postgresDatabase, 'through Kafka', { scanners, kafka: { brokers, topic: testTopic('benchscan') } });
  await throughput();
}
