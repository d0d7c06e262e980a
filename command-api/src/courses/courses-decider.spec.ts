import { describe, it } from 'vitest';
import { CourseCreated, MemberEnrolled, RoundScheduled } from '@portal/contracts/courses/course.events';
import type { Actor } from '../core/command.ts';
import { courseDecider } from '../courses/decider.ts';
import { deciderSpecification } from '../testing/decider-specification.ts';

const now = '2026-11-22T10:00:00.000Z';
const partner = { id: 'partner-1', role: 'partner' as const };
const otherPartner = { id: 'partner-2', role: 'partner' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const member = (n: number) => ({ id: `member-${n}`, role: 'member' as const });

const by = (actor: Actor) => ({ actor, now });
const given = deciderSpecification(courseDecider, 'course-1');

const created = (overrides: object = {}) =>
  CourseCreated.create({
    courseTopic: 'Thai cooking',
    courseDescription: 'Curries',
    maxPeople: 2,
    status: 'public',
    creator: partner.id,
    createdAt: now,
    ...overrides,
  });
const round = (roundId: string, start: string, end: string) =>
  RoundScheduled.create({ roundId, roundStartTime: start, roundEndTime: end, scheduledAt: now });
const enrolled = (n: number) => MemberEnrolled.create({ memberId: member(n).id, enrolledAt: now });
const create = { courseTopic: 'Thai cooking', courseDescription: 'Curries', maxPeople: 0, status: 'private' as const };

describe('the course decider', () => {
  it('lets partners and admins create courses, with the creator taken from the session; not members', () => {
    given()
      .when({ type: 'CreateCourse', metadata: by(partner), data: create })
      .then([{ type: 'CourseCreated', data: { creator: partner.id, status: 'private' } }]);
    given()
      .when({ type: 'CreateCourse', metadata: by(member(1)), data: create })
      .refused('forbidden', 'course.staffOnly');
  });

  it("lets only the creator or an admin change, delete or schedule a course's rounds", () => {
    const text = { courseTopic: 'New', courseDescription: 'New text' };
    given(created())
      .when({ type: 'UpdateCourse', metadata: by(otherPartner), data: { text } })
      .refused('forbidden', 'course.notCreator');
    given(created())
      .when({ type: 'DeleteCourse', metadata: by(otherPartner), data: {} })
      .refused('forbidden', 'course.notCreator');
    given(created())
      .when({ type: 'UpdateCourse', metadata: by(admin), data: { text, status: 'private' } })
      .then([
        { type: 'CourseUpdated', data: { courseTopic: 'New', maxPeople: 2 } },
        { type: 'CourseStatusChanged', data: { status: 'private' } },
      ]);
    given(created())
      .when({ type: 'DeleteCourse', metadata: by(partner), data: {} })
      .then([{ type: 'CourseDeleted' }]);
    given(created(), { ...created(), type: 'CourseDeleted', data: { deletedAt: now } })
      .when({ type: 'ChangeCourseStatus', metadata: by(admin), data: { status: 'public' } })
      .refused('notFound', 'course.notFound');
  });

  it('keeps rounds of one course from overlapping; one may start when another ends', () => {
    const nine = '2026-12-01T09:00:00.000Z';
    const ten = '2026-12-01T10:00:00.000Z';
    const eleven = '2026-12-01T11:00:00.000Z';
    const times = (roundId: string, roundStartTime: string, roundEndTime: string) => ({
      roundId,
      roundStartTime,
      roundEndTime,
    });
    given(created(), round('r1', nine, eleven))
      .when({ type: 'ScheduleRound', metadata: by(partner), data: times('r2', ten, '2026-12-01T12:00:00.000Z') })
      .refused('conflict', 'round.overlaps');
    given(created(), round('r1', nine, ten))
      .when({ type: 'ScheduleRound', metadata: by(partner), data: times('r2', ten, eleven) })
      .then([{ type: 'RoundScheduled', data: { roundId: 'r2' } }]);
    // Moving a round over its own old time is not an overlap.
    given(created(), round('r1', nine, ten))
      .when({ type: 'RescheduleRound', metadata: by(partner), data: times('r1', '2026-12-01T09:30:00.000Z', eleven) })
      .then([{ type: 'RoundRescheduled' }]);
    given(created())
      .when({ type: 'CancelRound', metadata: by(partner), data: { roundId: 'nope' } })
      .refused('notFound', 'round.notFound');
  });

  it('lets members enrol in public courses up to capacity, once each', () => {
    given(created())
      .when({ type: 'Enrol', metadata: by(member(1)), data: {} })
      .then([{ type: 'MemberEnrolled' }]);
    given(created(), enrolled(1))
      .when({ type: 'Enrol', metadata: by(member(1)), data: {} })
      .then([]);
    given(created(), enrolled(1), enrolled(2))
      .when({ type: 'Enrol', metadata: by(member(3)), data: {} })
      .refused('conflict', 'course.full');
    given(created({ maxPeople: 0 }), enrolled(1), enrolled(2))
      .when({ type: 'Enrol', metadata: by(member(3)), data: {} })
      .then([{ type: 'MemberEnrolled' }]);
    given(created({ status: 'private' }))
      .when({ type: 'Enrol', metadata: by(member(1)), data: {} })
      .refused('conflict', 'course.notPublic');
    given(created())
      .when({ type: 'Enrol', metadata: by(partner), data: {} })
      .refused('forbidden', 'enrol.membersOnly');
    given(created(), enrolled(1))
      .when({ type: 'Unenrol', metadata: by(member(1)), data: {} })
      .then([{ type: 'MemberUnenrolled' }]);
    given(created())
      .when({ type: 'Unenrol', metadata: by(member(1)), data: {} })
      .refused('conflict', 'course.notEnrolled');
  });

  it('refuses a capacity below the members already enrolled', () => {
    given(created(), enrolled(1), enrolled(2))
      .when({
        type: 'UpdateCourse',
        metadata: by(partner),
        data: { text: { courseTopic: 'T', courseDescription: 'D', maxPeople: 1 } },
      })
      .refused('conflict', 'course.belowEnrolled');
  });

  it('refuses to create a course over an existing one, as a conflict (never a server error)', () => {
    given(created())
      .when({ type: 'CreateCourse', metadata: by(partner), data: create })
      .refused('conflict', 'request.conflict');
  });

  it('admits a walk-in at the door while a place is left, once, and only for who may scan', () => {
    given(created(), enrolled(1))
      .when({ type: 'EnrolWalkIn', metadata: by(partner), data: { memberId: member(2).id } })
      .then([{ type: 'MemberEnrolled', data: { memberId: member(2).id, walkIn: true, enrolledBy: partner.id } }]);
    given(created(), enrolled(1))
      .when({ type: 'EnrolWalkIn', metadata: by(partner), data: { memberId: member(1).id } })
      .then([]);
    given(created(), enrolled(1), enrolled(2))
      .when({ type: 'EnrolWalkIn', metadata: by(admin), data: { memberId: member(3).id } })
      .refused('conflict', 'course.full');
    given(created())
      .when({ type: 'EnrolWalkIn', metadata: by(otherPartner), data: { memberId: member(3).id } })
      .refused('forbidden', 'course.notScanner');
  });
});
