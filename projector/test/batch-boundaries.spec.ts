import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttendanceScanned, AttendanceVoided, ScanRefused } from '@portal/contracts/attendance/attendance.events';
import {
  MemberApproved,
  MemberRejected,
  PersonalDataErased,
  ProfileUpdated,
  RegistrationDeleted,
  accountStream,
} from '@portal/contracts/accounts/account.events';
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
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { eraseKey, seal } from '@portal/platform/privacy/personal-data';
import { memberRegisteredEvent, sampleMember } from '@portal/platform/testing/accounts';
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
  | { kind: 'delete' }
  | { kind: 'register' | 'approve' | 'reject' | 'profile' | 'unregister' | 'erase'; account: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('scan' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refuse' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('void' as const), round: fc.nat(2), member: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), round: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        'register' as const,
        'register' as const,
        'approve' as const,
        'reject' as const,
        'profile' as const,
        'unregister' as const,
        'erase' as const,
      ),
      account: fc.nat(2),
    }),
  },
);

async function story(sql: Sql, course: string, steps: Step[]): Promise<[string, NewEvent][]> {
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
  for (const [i, s] of steps.entries()) {
    const at = t(2 + (i % 40));
    if ('account' in s) {
      const id = `${course}-a${s.account}`;
      const stream = accountStream(id);
      if (s.kind === 'register') {
        // Refused once the person's data is erased (the command side cannot seal it any more).
        const registered = await memberRegisteredEvent(sql, id).catch(() => null);
        if (registered) events.push([stream, registered]);
      } else if (s.kind === 'approve') events.push([stream, MemberApproved.create({ approvedAt: at })]);
      else if (s.kind === 'reject') events.push([stream, MemberRejected.create({ rejectedAt: at })]);
      else if (s.kind === 'unregister') events.push([stream, RegistrationDeleted.create({ deletedAt: at })]);
      else if (s.kind === 'erase') {
        await eraseKey(sql, id);
        events.push([stream, PersonalDataErased.create({ erasedAt: at })]);
      } else {
        const { password: _p, acceptTerms: _a, ...personal } = sampleMember({ fullName: `Changed ${i}` });
        // Sealed while the key is there; once erased, sealing is refused and the step is a no-op.
        const sealed = await seal(sql, id, personal).catch(() => null);
        if (sealed) events.push([stream, ProfileUpdated.create({ personal: sealed, updatedAt: at })]);
      }
      continue;
    }
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
  }
  return events;
}

describe('batch boundaries do not change the read models', () => {
  // One database (the people's keys live beside the log): read models built as one batch in
  // 'rm', one event per batch in 'single'.
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(pgliteDatabase));
    for (const schema of ['rm', 'single']) await prepareReadModels(db, schema, projections);
    await unlockReadModels(db);
  });
  afterAll(() => drop());

  const rowsOf = async (schema: string, course: string) => ({
    attendance: await db.query(
      `SELECT round_id, member_id, scanned_at, late, voided_at FROM ${schema}.attendance WHERE course_id = $1
        ORDER BY round_id, member_id`,
      [course],
    ),
    attempts: await db.query(
      `SELECT round_id, member_id, outcome, reason FROM ${schema}.scan_attempts WHERE course_id = $1
        ORDER BY round_id, member_id, server_time, outcome`,
      [course],
    ),
    rounds: await db.query(`SELECT id, attended FROM ${schema}.rounds WHERE id LIKE $1 ORDER BY id`, [`${course}-%`]),
    course: await db.query(`SELECT participate, total_attend, enrolled FROM ${schema}.courses WHERE id = $1`, [course]),
    accounts: await db.query(
      `SELECT id, status, full_name, username, updated_at FROM ${schema}.accounts WHERE id LIKE $1 ORDER BY id`,
      [`${course}-a%`],
    ),
    notifications: await db.query(
      `SELECT n.type, n.course_topic, n.subject_id, a.audience FROM ${schema}.notifications n
         JOIN ${schema}.notification_audience a ON a.notification_id = n.id
        WHERE n.course_id = $1 OR n.subject_id LIKE $2 ORDER BY n.id, a.audience`,
      [course, `${course}-%`],
    ),
  });

  const keptCounts = async (schema: string, course: string) => ({
    accounts: await db.query(
      `SELECT role, status, n::int AS n FROM ${schema}.account_counts WHERE n <> 0 ORDER BY role, status`,
    ),
    attempts: await db.query(
      `SELECT round_id, outcome, n::int AS n FROM ${schema}.scan_attempt_counts WHERE course_id = $1 AND n <> 0
        ORDER BY round_id, outcome`,
      [course],
    ),
  });
  const countedRows = async (schema: string, course: string) => ({
    accounts: await db.query(
      `SELECT role, status, count(*)::int AS n FROM ${schema}.accounts_sealed GROUP BY role, status ORDER BY role, status`,
    ),
    attempts: await db.query(
      `SELECT round_id, outcome, count(*)::int AS n FROM ${schema}.scan_attempts WHERE course_id = $1
        GROUP BY round_id, outcome ORDER BY round_id, outcome`,
      [course],
    ),
  });

  let run = 0;
  let after = START;
  it('any story of 1 to 40 steps: one batch and one event per batch end with the same rows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const course = `story${run++}`;
        for (const [streamId, event] of await story(db, course, steps)) {
          await store.append(streamId, [event], { expectedRevision: 'any' });
        }
        const log: StoredEvent[] = await store.readAll(after, 100_000);
        after = checkpointOf(log.at(-1)!);
        await applyBatch(db, 'rm', projections, log);
        for (const event of log) await applyBatch(db, 'single', projections, [event]);
        expect(await rowsOf('rm', course)).toEqual(await rowsOf('single', course));
        // The kept counts are the rows counted, however the events were batched.
        for (const schema of ['rm', 'single']) {
          expect(await keptCounts(schema, course), schema).toEqual(await countedRows(schema, course));
        }
      }),
      {
        numRuns: 40,
        // Orders a random search may miss: an approval before the registration it is for, a void
        // before a re-scan.
        examples: [
          [
            [
              { kind: 'approve', account: 0 },
              { kind: 'register', account: 0 },
              { kind: 'approve', account: 1 },
            ],
          ],
          [
            [
              { kind: 'scan', round: 0, member: 0 },
              { kind: 'void', round: 0, member: 0 },
              { kind: 'scan', round: 0, member: 0 },
            ],
          ],
        ],
      },
    );
  });
});
