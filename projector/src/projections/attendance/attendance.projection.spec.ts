import { describe, expect, it } from 'vitest';
import { AttendanceScanned, AttendanceVoided, ScanRefused } from '@portal/contracts/attendance/attendance.events';
import { CourseCreated, MemberEnrolled, RoundScheduled } from '@portal/contracts/courses/course.events';
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
});
