import { describe, expect, it } from 'vitest';
import { AttendanceScanned, AttendanceVoided, ScanRefused } from '@portal/contracts/attendance/attendance.events';
import {
  CourseCreated,
  CourseDeleted,
  MemberEnrolled,
  RoundCancelled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import type { NewEvent } from '@portal/contracts/envelope';
import { projectionSpecification } from '../../testing/projection-specification.ts';

const t = (hour: number, minute = 0) => new Date(Date.UTC(2026, 10, 24, hour, minute)).toISOString();
const attempt = (memberId: string, minute: number) => ({
  courseId: 'c1',
  roundId: 'r1',
  memberId,
  scannerId: 'p1',
  deviceId: 'phone-1',
  method: 'camera' as const,
  deviceTime: t(9, minute),
  serverTime: t(9, minute),
  lateUploaded: false,
});

/** A course of its own, for the stories that need more than c1. */
const course = (id: string) =>
  CourseCreated.create({
    courseTopic: id,
    courseDescription: '',
    maxPeople: 0,
    status: 'public',
    creator: 'p1',
    createdAt: t(1),
  });
/** An accepted scan of `memberId` in `roundId` of `courseId`, on time. */
const scanned = (courseId: string, roundId: string, memberId: string) =>
  AttendanceScanned.create({
    ...attempt(memberId, 3),
    courseId,
    roundId,
    scannedAt: t(9, 3),
    late: false,
    walkIn: false,
  });

/**
 * The attendance read model, from a small story worked out by hand: m1 scanned on time and again
 * (a duplicate), m3 walked in late and was voided, someone unknown was refused. What stands: m1
 * alone, so the round counts 1, the course 1 participant and 1 attendance; the audit keeps all
 * four attempts, the void among them.
 */
describe('the attendance projection', () => {
  const spec = projectionSpecification();

  it('counts what stands, keeps voided scans marked, and every attempt for the audit', async () => {
    await spec.given(
      [
        'course-c1',
        [
          CourseCreated.create({
            courseTopic: 'Knife skills',
            courseDescription: '',
            maxPeople: 0,
            status: 'public',
            creator: 'p1',
            createdAt: t(1),
          }),
          RoundScheduled.create({ roundId: 'r1', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
          MemberEnrolled.create({ memberId: 'm1', enrolledAt: t(2) }),
          MemberEnrolled.create({ memberId: 'm3', enrolledAt: t(9, 20), walkIn: true, enrolledBy: 'p1' }),
        ],
      ],
      [
        'attendance-r1-m1',
        [
          AttendanceScanned.create({ ...attempt('m1', 2), scannedAt: t(9, 2), late: false, walkIn: false }),
          ScanRefused.create({ ...attempt('m1', 5), reason: 'duplicate', firstScannedAt: t(9, 2) }),
        ],
      ],
      [
        'attendance-r1-m3',
        [
          AttendanceScanned.create({ ...attempt('m3', 20), scannedAt: t(9, 20), late: true, walkIn: true }),
          AttendanceVoided.create({
            courseId: 'c1',
            roundId: 'r1',
            memberId: 'm3',
            reason: 'wrong person',
            voidedBy: 'admin-1',
            voidedAt: t(9, 30),
          }),
        ],
      ],
      [
        'refusals-r1-phone-1',
        [ScanRefused.create({ ...attempt('', 25), memberId: null, reason: 'unknownMember', firstScannedAt: null })],
      ],
    );
    expect(
      await spec.rows(
        `SELECT member_id, late, walk_in, voided_at IS NOT NULL AS voided FROM rm.attendance
          WHERE round_id = 'r1' ORDER BY member_id`,
      ),
    ).toEqual([
      { member_id: 'm1', late: false, walk_in: false, voided: false },
      { member_id: 'm3', late: true, walk_in: true, voided: true },
    ]);
    expect(await spec.rows(`SELECT attended FROM rm.rounds WHERE id = 'r1'`)).toEqual([{ attended: 1 }]);
    expect(await spec.rows(`SELECT participate, total_attend FROM rm.courses WHERE id = 'c1'`)).toEqual([
      { participate: 1, total_attend: 1 },
    ]);
    expect(
      await spec.rows(
        `SELECT member_id, outcome, reason FROM rm.scan_attempts WHERE round_id = 'r1' ORDER BY position`,
      ),
    ).toEqual([
      { member_id: 'm1', outcome: 'accepted', reason: null },
      { member_id: 'm1', outcome: 'refused', reason: 'duplicate' },
      { member_id: 'm3', outcome: 'accepted', reason: null },
      { member_id: 'm3', outcome: 'voided', reason: 'wrong person' },
      { member_id: null, outcome: 'refused', reason: 'unknownMember' },
    ]);
  });

  /**
   * Two projectors (Kafka partitions) can apply a scan and the cancellation of its round, or the
   * deletion of its course, at once, neither seeing the other's rows: the scan's row is left
   * behind. The next batch that touches that round or course drops it, so nothing counts it.
   * Here the left-behind rows are written as such a projector would have, then one scan of each
   * arrives late.
   */
  it('drops rows a concurrent projector left in a cancelled round and in a deleted course', async () => {
    await spec.given(
      [
        'course-c2',
        [
          course('c2'),
          RoundScheduled.create({ roundId: 'r2', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
          RoundScheduled.create({ roundId: 'r3', roundStartTime: t(11), roundEndTime: t(12), scheduledAt: t(1) }),
          RoundCancelled.create({ roundId: 'r2', cancelledAt: t(8) }),
        ],
      ],
      [
        'course-c4',
        [
          course('c4'),
          RoundScheduled.create({ roundId: 'r4', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
          CourseDeleted.create({ deletedAt: t(8) }),
        ],
      ],
      ['attendance-r3-m1', [scanned('c2', 'r3', 'm1')]],
    );
    for (const [round, course] of [
      ['r2', 'c2'],
      ['r4', 'c4'],
    ]) {
      await leftBehind(round!, course!);
    }
    await spec.given(
      ['attendance-r2-m2', [scanned('c2', 'r2', 'm2')]],
      ['attendance-r4-m2', [scanned('c4', 'r4', 'm2')]],
    );
    expect(
      await spec.rows(`SELECT round_id, member_id FROM rm.attendance WHERE round_id <> 'r1' ORDER BY round_id`),
    ).toEqual([{ round_id: 'r3', member_id: 'm1' }]);
    expect(await spec.rows(`SELECT participate, total_attend FROM rm.courses WHERE id = 'c2'`)).toEqual([
      { participate: 1, total_attend: 1 },
    ]);
    expect(
      await spec.rows(`SELECT course_id, member_id, scans FROM rm.course_members WHERE course_id IN ('c2', 'c4')`),
    ).toEqual([{ course_id: 'c2', member_id: 'm1', scans: 1 }]);
  });
  /**
   * The same left-behind row, while the courses read model still has the cancelled round (its
   * projection set aside after a fault and behind): the recount drops the row and counts without
   * it, though both happen in one statement that sees the rows as it began.
   */
  it('counts nothing of a cancelled round whose row the courses read model still has', async () => {
    await spec.given([
      'course-c5',
      [
        course('c5'),
        RoundScheduled.create({ roundId: 'r5', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
        RoundScheduled.create({ roundId: 'r6', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
        RoundCancelled.create({ roundId: 'r5', cancelledAt: t(8) }),
      ],
    ]);
    await spec.db.query(`INSERT INTO rm.rounds (id, course_id, starts_at, ends_at) VALUES ('r5', 'c5', $1, $2)`, [
      t(9),
      t(10),
    ]);
    await leftBehind('r5', 'c5');
    await spec.given(
      ['attendance-r5-m2', [scanned('c5', 'r5', 'm2')]],
      ['attendance-r6-m1', [scanned('c5', 'r6', 'm1')]],
    );
    expect(await spec.rows(`SELECT round_id, member_id FROM rm.attendance WHERE course_id = 'c5'`)).toEqual([
      { round_id: 'r6', member_id: 'm1' },
    ]);
    expect(await spec.rows(`SELECT id, attended FROM rm.rounds WHERE course_id = 'c5' ORDER BY id`)).toEqual([
      { id: 'r5', attended: 0 },
      { id: 'r6', attended: 1 },
    ]);
    expect(await spec.rows(`SELECT participate, total_attend FROM rm.courses WHERE id = 'c5'`)).toEqual([
      { participate: 1, total_attend: 1 },
    ]);
    expect(await spec.rows(`SELECT member_id, scans FROM rm.course_members WHERE course_id = 'c5'`)).toEqual([
      { member_id: 'm1', scans: 1 },
    ]);
  });

  /** The same for a deleted course whose round the courses read model still has. */
  it('counts nothing of a deleted course whose round the courses read model still has', async () => {
    await spec.given([
      'course-c6',
      [
        course('c6'),
        RoundScheduled.create({ roundId: 'r7', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
        CourseDeleted.create({ deletedAt: t(8) }),
      ],
    ]);
    await spec.db.query(`INSERT INTO rm.rounds (id, course_id, starts_at, ends_at) VALUES ('r7', 'c6', $1, $2)`, [
      t(9),
      t(10),
    ]);
    await leftBehind('r7', 'c6');
    await spec.given(['attendance-r7-m2', [scanned('c6', 'r7', 'm2')]]);
    expect(await spec.rows(`SELECT round_id, member_id FROM rm.attendance WHERE course_id = 'c6'`)).toEqual([]);
    expect(await spec.rows(`SELECT id, attended FROM rm.rounds WHERE course_id = 'c6'`)).toEqual([
      { id: 'r7', attended: 0 },
    ]);
    expect(await spec.rows(`SELECT member_id, scans FROM rm.course_members WHERE course_id = 'c6'`)).toEqual([]);
  });

  /**
   * A batch's rounds and members go to the database as values when there are up to four of each,
   * else as arrays (list-parameter.ts): worked out by hand, 6 rounds of 3 members (18 scans, then
   * 2 voided) and one round of 20 members (then 1 voided). Each `given` applies the whole log
   * again as one batch, with the stories above: more than four rounds, then more than sixteen
   * members.
   */
  it('counts a batch of many rounds and members as it counts one of a few', async () => {
    const rounds = ['r71', 'r72', 'r73', 'r74', 'r75', 'r76'];
    const crowd = Array.from({ length: 20 }, (_, i) => `crowd${i}`);
    const voided = (courseId: string, roundId: string, memberId: string) =>
      AttendanceVoided.create({
        courseId,
        roundId,
        memberId,
        reason: 'wrong person',
        voidedBy: 'p1',
        voidedAt: t(9, 40),
      });
    const schedule = (roundId: string) =>
      RoundScheduled.create({ roundId, roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) });
    await spec.given(
      ['course-c7', [course('c7'), ...rounds.map(schedule)]],
      ...rounds.flatMap((round) =>
        ['m1', 'm2', 'm3'].map((member): [string, NewEvent[]] => [
          `attendance-${round}-${member}`,
          [scanned('c7', round, member)],
        ]),
      ),
    );
    const counts = async (course: string) => ({
      rounds: await spec.rows(`SELECT id, attended FROM rm.rounds WHERE course_id = $1 ORDER BY id`, [course]),
      course: await spec.rows(`SELECT participate, total_attend FROM rm.courses WHERE id = $1`, [course]),
    });
    expect(await counts('c7')).toEqual({
      rounds: rounds.map((id) => ({ id, attended: 3 })),
      course: [{ participate: 3, total_attend: 18 }],
    });
    await spec.given(
      ['attendance-r71-m1', [voided('c7', 'r71', 'm1')]],
      ['attendance-r72-m1', [voided('c7', 'r72', 'm1')]],
    );
    expect(await counts('c7')).toEqual({
      rounds: rounds.map((id, i) => ({ id, attended: i < 2 ? 2 : 3 })),
      course: [{ participate: 3, total_attend: 16 }],
    });
    await spec.given(
      ['course-c8', [course('c8'), schedule('r81')]],
      ...crowd.map((member): [string, NewEvent[]] => [`attendance-r81-${member}`, [scanned('c8', 'r81', member)]]),
    );
    expect(await counts('c8')).toEqual({
      rounds: [{ id: 'r81', attended: 20 }],
      course: [{ participate: 20, total_attend: 20 }],
    });
    await spec.given(['attendance-r81-crowd0', [voided('c8', 'r81', 'crowd0')]]);
    expect(await counts('c8')).toEqual({
      rounds: [{ id: 'r81', attended: 19 }],
      course: [{ participate: 19, total_attend: 19 }],
    });
  });

  /**
   * A scan's row as the projector that applied it beside the cancellation or deletion left it,
   * with what that projector's recount counted (the round stood in what it saw): the member's
   * scans in the course, and the course's counts by them.
   */
  async function leftBehind(round: string, course: string) {
    await spec.db.query(
      `INSERT INTO rm.attendance (round_id, member_id, course_id, scanned_at, scanner_id, method, late, walk_in)
       VALUES ($1, 'left-behind', $2, $3, 'p1', 'camera', false, false)`,
      [round, course, t(9, 1)],
    );
    await spec.db.query(`INSERT INTO rm.course_members (course_id, member_id, scans) VALUES ($1, 'left-behind', 1)`, [
      course,
    ]);
    await spec.db.query(
      `UPDATE rm.courses SET participate = participate + 1, total_attend = total_attend + 1 WHERE id = $1`,
      [course],
    );
  }
});
