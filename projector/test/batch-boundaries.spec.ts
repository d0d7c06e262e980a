import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttendanceScanned, AttendanceVoided, ScanRefused } from '@portal/contracts/attendance/attendance.events';
import {
  CourseCreated,
  CourseDeleted,
  MemberEnrolled,
  RoundCancelled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { START, checkpointOf, type EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, pgliteDatabase } from '@portal/platform/testing/databases';
import { applyBatch } from '../src/apply.ts';
import { projections } from '../src/projections/index.ts';
import { prepareReadModels } from '../src/read-models.ts';

/**
 * Projections gather a batch's writes and write them together (the attendance projection writes
 * all the batch's scans in one statement and recounts once). Where a batch ends must not change
 * what the read models say: any story of scans, refusals, voids, re-scans, a round cancelled and a
 * course deleted, applied as one batch, gives the same rows as the same story one event per batch.
 */
const t = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();

type Step =
  | { kind: 'scan'; round: number; member: number }
  | { kind: 'refuse'; round: number; member: number }
  | { kind: 'void'; round: number; member: number }
  | { kind: 'cancel'; round: number }
  | { kind: 'delete' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('scan' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refuse' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('void' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), round: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
);

function story(course: string, steps: Step[]): [string, NewEvent][] {
  const round = (r: number) => `${course}-r${r}`;
  const member = (m: number) => `${course}-m${m}`;
  const events: [string, NewEvent][] = [
    [
      `course-${course}`,
      CourseCreated.create({
        courseTopic: 'Story',
        courseDescription: '',
        maxPeople: 0,
        status: 'public',
        creator: 'p1',
        createdAt: t(0),
      }),
    ],
    ...[0, 1, 2].map((r): [string, NewEvent] => [
      `course-${course}`,
      RoundScheduled.create({ roundId: round(r), roundStartTime: t(1), roundEndTime: t(50), scheduledAt: t(0) }),
    ]),
    ...[0, 1, 2, 3].map((m): [string, NewEvent] => [
      `course-${course}`,
      MemberEnrolled.create({ memberId: member(m), enrolledAt: t(0) }),
    ]),
  ];
  steps.forEach((s, i) => {
    const at = t(2 + (i % 40));
    const base = { courseId: course, scannerId: 'p1', deviceId: 'phone', serverTime: at, lateUploaded: false };
    if (s.kind === 'scan') {
      events.push([
        `attendance-${round(s.round)}-${member(s.member)}`,
        AttendanceScanned.create({
          ...base,
          roundId: round(s.round),
          memberId: member(s.member),
          method: 'camera',
          deviceTime: at,
          scannedAt: at,
          late: i % 2 === 0,
          walkIn: false,
        }),
      ]);
    } else if (s.kind === 'refuse') {
      events.push([
        `attendance-${round(s.round)}-${member(s.member)}`,
        ScanRefused.create({
          ...base,
          roundId: round(s.round),
          memberId: member(s.member),
          method: 'camera',
          deviceTime: at,
          reason: 'duplicate',
          firstScannedAt: at,
        }),
      ]);
    } else if (s.kind === 'void') {
      events.push([
        `attendance-${round(s.round)}-${member(s.member)}`,
        AttendanceVoided.create({
          courseId: course,
          roundId: round(s.round),
          memberId: member(s.member),
          reason: 'wrong person',
          voidedBy: 'admin',
          voidedAt: at,
        }),
      ]);
    } else if (s.kind === 'cancel') {
      events.push([`course-${course}`, RoundCancelled.create({ roundId: round(s.round), cancelledAt: at })]);
    } else {
      events.push([`course-${course}`, CourseDeleted.create({ deletedAt: at })]);
    }
  });
  return events;
}

describe('batch boundaries do not change the read models', () => {
  let store: EventStore;
  let drop: () => Promise<void>;
  let whole: SqlDatabase;
  let single: SqlDatabase;
  let dropWhole: () => Promise<void>;
  let dropSingle: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await openEventStore(pgliteDatabase));
    ({ db: whole, drop: dropWhole } = await openEventStore(pgliteDatabase));
    ({ db: single, drop: dropSingle } = await openEventStore(pgliteDatabase));
    for (const db of [whole, single]) {
      await prepareReadModels(db, 'rm', projections);
      await unlockReadModels(db);
    }
  });
  afterAll(async () => {
    await drop();
    await dropWhole();
    await dropSingle();
  });

  const rowsOf = async (db: SqlDatabase, course: string) => ({
    attendance: await db.query(
      `SELECT round_id, member_id, scanned_at, late, voided_at FROM rm.attendance WHERE course_id = $1
        ORDER BY round_id, member_id`,
      [course],
    ),
    attempts: await db.query(
      `SELECT round_id, member_id, outcome, reason FROM rm.scan_attempts WHERE course_id = $1
        ORDER BY round_id, member_id, server_time, outcome`,
      [course],
    ),
    rounds: await db.query(`SELECT id, attended FROM rm.rounds WHERE id LIKE $1 ORDER BY id`, [`${course}-%`]),
    course: await db.query(`SELECT participate, total_attend FROM rm.courses WHERE id = $1`, [course]),
  });

  let run = 0;
  let after = START;
  it('any story of 1 to 40 steps: one batch and one event per batch end with the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const course = `story${run++}`;
        for (const [streamId, event] of story(course, steps)) {
          await store.append(streamId, [event], { expectedRevision: 'any' });
        }
        const log: StoredEvent[] = await store.readAll(after, 100_000);
        after = checkpointOf(log.at(-1)!);
        await applyBatch(whole, 'rm', projections, log);
        for (const event of log) await applyBatch(single, 'rm', projections, [event]);
        expect(await rowsOf(whole, course)).toEqual(await rowsOf(single, course));
      }),
      { numRuns: 40 },
    );
  });
});
