/**
 * What a batch of scans costs the projector in a big course's live session, side by side with
 * the same batch in a course of one round: a course of 30 rounds of 200 members (6,000 standing
 * scans) gets a 31st round scanned, four members per batch, one transaction each, as the
 * projector applies them (applyBatch: every projection, the checkpoint, the notification). The
 * two should cost the same: a batch's work should follow the batch, not the course.
 *
 *   npx tsx bench/big-course.bench.ts        (PGlite, and PostgreSQL when DATABASE_URL is set)
 *
 * Prints the median and p90 of 50 batches for each course, interleaved; fails if either course's
 * counts differ from those worked out from the scans (a benchmark of wrong work proves nothing).
 */
import { performance } from 'node:perf_hooks';
import { AttendanceScanned } from '@portal/contracts/attendance/attendance.events';
import { CourseCreated, MemberEnrolled, RoundScheduled } from '@portal/contracts/courses/course.events';
import type { NewEvent } from '@portal/contracts/envelope';
import { type Checkpoint, type EventStore, checkpointOf } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type TestDatabase, openEventStore } from '@portal/platform/testing/databases';
import { applyBatch } from '@portal/projector/apply';
import { prepareReadModels } from '@portal/projector/read-models';
import { projections } from '@portal/projector/projections/index';
import { wholeLog } from '@portal/projector/testing/read-model-copies';
import { onEachDatabase } from './measure.ts';

const ROUNDS = Number(process.env.BENCH_COURSE_ROUNDS ?? 30);
const MEMBERS = Number(process.env.BENCH_COURSE_MEMBERS ?? 200);
const PER_BATCH = 4;
/** Each member is scanned once in the measured round, as the command side allows. */
const BATCHES = Math.min(50, Math.floor(MEMBERS / PER_BATCH));
const at = new Date(Date.UTC(2026, 10, 24, 9)).toISOString();

/** A course with `rounds` rounds (ids `<course>-r<n>`, so two courses never share one) and every member enrolled. */
const courseEvents = (course: string, rounds: number): NewEvent[] => [
  CourseCreated.create({
    courseTopic: 'Bench',
    courseDescription: '',
    maxPeople: 0,
    status: 'public',
    creator: 'p1',
    createdAt: at,
  }),
  ...Array.from({ length: rounds }, (_, r) =>
    RoundScheduled.create({ roundId: `${course}-r${r}`, roundStartTime: at, roundEndTime: at, scheduledAt: at }),
  ),
  ...Array.from({ length: MEMBERS }, (_, m) => MemberEnrolled.create({ memberId: `m${m}`, enrolledAt: at })),
];

const scan = (course: string, round: number, member: number): [string, NewEvent] => [
  `attendance-${course}-r${round}-m${member}`,
  AttendanceScanned.create({
    courseId: course,
    roundId: `${course}-r${round}`,
    memberId: `m${member}`,
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

async function appendAll(store: EventStore, events: [string, NewEvent][]) {
  for (const [stream, event] of events) await store.append(stream, [event], { expectedRevision: 'no_stream' });
}

/** The counts the course list shows for `course`, against those worked out from what was scanned. */
async function checkCounts(db: SqlDatabase, course: string, members: number, scans: number) {
  const [row] = await db.query<{ participate: number; total_attend: number }>(
    `SELECT participate, total_attend FROM rm.courses WHERE id = $1`,
    [course],
  );
  if (row?.participate !== members || row.total_attend !== scans) {
    throw new Error(`${course}: counts ${JSON.stringify(row)}, expected ${members} members and ${scans} scans`);
  }
}

async function run(database: TestDatabase) {
  const { db, store, drop } = await openEventStore(database);
  try {
    await prepareReadModels(db, 'rm', projections);
    await store.append('course-big', courseEvents('big', ROUNDS + 1), { expectedRevision: 'no_stream' });
    await store.append('course-small', courseEvents('small', 1), { expectedRevision: 'no_stream' });
    const started = performance.now();
    const earlier: [string, NewEvent][] = [];
    for (let r = 0; r < ROUNDS; r++) for (let m = 0; m < MEMBERS; m++) earlier.push(scan('big', r, m));
    await appendAll(store, earlier);
    const log = await wholeLog(store);
    for (let i = 0; i < log.length; i += 500) await applyBatch(db, 'rm', projections, log.slice(i, i + 500));
    let checkpoint: Checkpoint = checkpointOf(log[log.length - 1]!);
    const seeded = (performance.now() - started) / 1000;

    /** Scans the batch's members into the course's measured round and times the projector applying them. */
    const batchCost = async (course: string, round: number, batch: number) => {
      const members = Array.from({ length: PER_BATCH }, (_, i) => batch * PER_BATCH + i);
      await appendAll(
        store,
        members.map((m) => scan(course, round, m)),
      );
      const events = await store.readAll(checkpoint, PER_BATCH);
      const begun = performance.now();
      checkpoint = await applyBatch(db, 'rm', projections, events);
      return performance.now() - begun;
    };
    // Interleaved batch by batch, so a slower minute of the machine falls on both courses.
    const small: number[] = [];
    const big: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      small.push(await batchCost('small', 0, b));
      big.push(await batchCost('big', ROUNDS, b));
    }
    await checkCounts(db, 'small', BATCHES * PER_BATCH, BATCHES * PER_BATCH);
    await checkCounts(db, 'big', MEMBERS, ROUNDS * MEMBERS + BATCHES * PER_BATCH);
    const p = (times: number[], q: number) => [...times].sort((a, b) => a - b)[Math.floor(times.length * q)]!;
    const line = (label: string, times: number[]) =>
      `  ${label.padEnd(44)} p50 ${p(times, 0.5).toFixed(2).padStart(6)} ms  p90 ${p(times, 0.9).toFixed(2).padStart(6)} ms`;
    console.log(
      `${database.name}: ${ROUNDS * MEMBERS} scans seeded and projected in ${seeded.toFixed(1)} s; counts as worked out\n` +
        `${line(`a batch of ${PER_BATCH} scans, course of 1 round`, small)}\n` +
        `${line(`a batch of ${PER_BATCH} scans, course of ${ROUNDS * MEMBERS} scans`, big)}\n` +
        `  ratio (p50) ${(p(big, 0.5) / p(small, 0.5)).toFixed(2)}x`,
    );
  } finally {
    await drop();
  }
}

console.log(
  `Big course benchmark: the projector's cost of a batch of ${PER_BATCH} scans, ${BATCHES} batches per course`,
);
await onEachDatabase(run);
