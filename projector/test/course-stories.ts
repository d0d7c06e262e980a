import fc from 'fast-check';
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
import type { NewEvent } from '@portal/contracts/envelope';
import type { Sql } from '@portal/platform/store/sql';
import { eraseKey, seal } from '@portal/platform/privacy/personal-data';
import { memberRegisteredEvent, sampleMember } from '@portal/platform/testing/accounts';

/**
 * Stories of one course and a few people, for tests that build the read models two ways and
 * compare them: scans, refusals, voids, re-scans, a round cancelled, the course deleted, and
 * accounts registered, approved, rejected, changed, deleted and erased. Course `c`'s rounds are
 * `c-r0`..`c-r2`, its members `c-m0`..`c-m3`, its accounts `c-a0`..`c-a2`.
 */
const t = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute)).toISOString();

export type Step =
  | { kind: 'scan'; round: number; member: number }
  | { kind: 'refuse'; round: number; member: number }
  | { kind: 'void'; round: number; member: number }
  | { kind: 'cancel'; round: number }
  | { kind: 'delete' }
  | { kind: 'register' | 'approve' | 'reject' | 'profile' | 'unregister' | 'erase'; account: number };

export const step: fc.Arbitrary<Step> = fc.oneof(
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

export async function story(sql: Sql, course: string, steps: Step[]): Promise<[string, NewEvent][]> {
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
