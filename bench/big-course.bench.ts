/**
 * What a batch of scans costs the projector in a big course's live session, side by side with
 * the same batch in a course of one round: a course of 30 rounds of 200 members (6,000 standing
 * scans) gets a 31st round scanned, four members per batch, one transaction each, as the
 * projector applies them (applyBatch: every projection, the checkpoint, the notification). The
 * two should cost the same: a batch's work should follow the batch, not the course.
 *
 *   npx tsx bench/big-course.bench.ts        (PGlite, and PostgreSQL when DATABASE_URL is set)
 *
 * Prints the median and p90 of 50 batches for each course; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { AttendanceScanned } from '@portal/contracts/attendance/attendance.events';
import { CourseCreated, MemberEnrolled, RoundScheduled } from '@portal/contracts/courses/course.events';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import { type EventStore, START, type Checkpoint, checkpointOf } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type TestDatabase, openEventStore } from '@portal/platform/testing/databases';
import { applyBatch } from '@portal/projector/apply';
import { prepareReadModels } from '@portal/projector/read-models';
import { projections } from '@portal/projector/projections/index';
import { onEachDatabase } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_COURSE_ROUNDS ?? 30);
const MEMBERS = Number(process.env.BENCH_COURSE_MEMBERS ?? 200);
const PER_BATCH = 4;
const BATCHES = 50;
const at = new Date(Date.UTC(2026, 10, 24, 9)).toISOString();

const courseEvents = (rounds: number): NewEvent[] => [
  CourseCreated.create({
    courseTopic: 'Bench',
    courseDescription: '',
    maxPeople: 0,
    status: 'public',
    creator: 'p1',
    createdAt: at,
  }),
  ...Array.from({ length: rounds }, (_, r) =>
    RoundScheduled.create({ roundId: `r${r}`, roundStartTime: at, roundEndTime: at, scheduledAt: at }),
  ),
  ...Array.from({ length: MEMBERS }, (_, m) => MemberEnrolled.create({ memberId: `m${m}`, enrolledAt: at })),
];

const scan = (course: string, round: string, member: string): [string, NewEvent] => [
  `attendance-${course}-${round}-${member}`,
  AttendanceScanned.create({
    courseId: course,
    roundId: `${course}-${round}`,
    memberId: member,
    scannerId: 'p1',
    deviceId: 'phone',
    method: 'camera',
    deviceTime: at,
    serverTime: at,
    lateUploaded: false,
    scannedAt: at,
    late: false,
    walkIn: false,
  }),
];

/** Round ids are the course's own (`big-r3`), so two courses never share one. */
const withCourseRounds = (course: string, events: NewEvent[]): NewEvent[] =>
  events.map((event) =>
    event.type === 'RoundScheduled'
      ? {
          ...event,
          data: { ...(event.data as object), roundId: `${course}-${(event.data as { roundId: string }).roundId}` },
        }
      : event,
  );

async function readFrom(store: EventStore, from: Checkpoint): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (let after = from; ;) {
    const batch = await store.readAll(after, 1000);
    if (batch.length === 0) return events;
    events.push(...batch);
    after = checkpointOf(batch[batch.length - 1]!);
  }
}

async function appendAll(store: EventStore, events: [string, NewEvent][]) {
  for (const [stream, event] of events) await store.append(stream, [event], { expectedRevision: 'any' });
}

/** Applies what the log gained since `from`, in batches of 500; answers where it got to. */
async function project(db: SqlDatabase, store: EventStore, from: Checkpoint): Promise<Checkpoint> {
  const events = await readFrom(store, from);
  for (let i = 0; i < events.length; i += 500) await applyBatch(db, 'rm', projections, events.slice(i, i + 500));
  return events.length ? checkpointOf(events[events.length - 1]!) : from;
}

async function run(database: TestDatabase) {
  const { db, store, drop } = await openEventStore(database);
  try {
    await prepareReadModels(db, 'rm', projections);
    await store.append('course-big', withCourseRounds('big', courseEvents(ROUNDS + 1)), {
      expectedRevision: 'no_stream',
    });
    await store.append('course-small', withCourseRounds('small', courseEvents(1)), { expectedRevision: 'no_stream' });
    const started = performance.now();
    const earlier: [string, NewEvent][] = [];
    for (let r = 0; r < ROUNDS; r++) for (let m = 0; m < MEMBERS; m++) earlier.push(scan('big', `r${r}`, `m${m}`));
    await appendAll(store, earlier);
    let checkpoint = await project(db, store, START);
    const seeded = (performance.now() - started) / 1000;

    const batchCosts = async (course: string, round: string) => {
      const times: number[] = [];
      for (let b = 0; b < BATCHES; b++) {
        await appendAll(
          store,
          Array.from({ length: PER_BATCH }, (_, i) => scan(course, round, `m${(b * PER_BATCH + i) % MEMBERS}`)),
        );
        const events = await readFrom(store, checkpoint);
        const begun = performance.now();
        checkpoint = await applyBatch(db, 'rm', projections, events);
        times.push(performance.now() - begun);
      }
      times.sort((a, b) => a - b);
      return { p50: times[Math.floor(BATCHES / 2)]!, p90: times[Math.floor(BATCHES * 0.9)]! };
    };
    // Alternated, so a slower minute of the machine falls on both.
    const small1 = await batchCosts('small', 'r0');
    const big1 = await batchCosts('big', `r${ROUNDS}`);
    const [standing] = await db.query<{ participate: number; total_attend: number }>(
      `SELECT participate, total_attend FROM rm.courses WHERE id = 'big'`,
    );
    const line = (label: string, { p50, p90 }: { p50: number; p90: number }) =>
      `  ${label.padEnd(44)} p50 ${p50.toFixed(2).padStart(6)} ms  p90 ${p90.toFixed(2).padStart(6)} ms`;
    console.log(
      `${database.name}: ${ROUNDS * MEMBERS} scans seeded and projected in ${seeded.toFixed(1)} s ` +
        `(course counts ${standing?.participate} members, ${standing?.total_attend} scans)\n` +
        `${line(`a batch of ${PER_BATCH} scans, course of 1 round`, small1)}\n` +
        `${line(`a batch of ${PER_BATCH} scans, course of ${ROUNDS * MEMBERS} scans`, big1)}\n` +
        `  ratio (p50) ${(big1.p50 / small1.p50).toFixed(2)}x`,
    );
  } finally {
    await drop();
  }
}

console.log(`Big course benchmark: the projector's cost of a batch of ${PER_BATCH} scans, ${BATCHES} batches`);
await onEachDatabase(run);
