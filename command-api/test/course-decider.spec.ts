import { describe, expect, it } from 'vitest';
import {
  CourseCreated,
  type CourseEvent,
  MemberEnrolled,
  RoundScheduled,
  decodeCourseEvent,
} from '@portal/contracts/courses/course.events';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import type { HttpError } from '@portal/platform/http/errors';
import { type Course, evolve, initialState } from '../src/courses/course.ts';
import { type CourseCommand, decide } from '../src/courses/decide.ts';

const now = '2026-11-22T10:00:00.000Z';
const partner = { id: 'partner-1', role: 'partner' as const };
const otherPartner = { id: 'partner-2', role: 'partner' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const member = (n: number) => ({ id: `member-${n}`, role: 'member' as const });

/** Given these events, when this command, then these events (or this refusal): no I/O. */
function given(...events: NewEvent[]) {
  let state: Course = initialState();
  events.forEach((event, revision) => {
    const stored = { ...event, streamId: 'course-1', streamRevision: revision, position: revision + 1 } as StoredEvent;
    state = evolve(state, decodeCourseEvent(stored) as CourseEvent);
  });
  return {
    when(command: Omit<CourseCommand, 'now'>) {
      const run = () => decide({ ...command, now } as CourseCommand, state);
      return {
        then: (expected: { type: string; data?: object }[]) =>
          expect(run().map(({ type, data }) => ({ type, data }))).toEqual(
            expected.map((event) => ({ type: event.type, data: expect.objectContaining(event.data ?? {}) })),
          ),
        refused: (status: number, messageKey: string) =>
          expect(run).toThrow(expect.objectContaining({ statusCode: status, messageKey }) as unknown as HttpError),
      };
    },
  };
}

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
      .when({ type: 'CreateCourse', actor: partner, data: create })
      .then([{ type: 'CourseCreated', data: { creator: partner.id, status: 'private' } }]);
    given()
      .when({ type: 'CreateCourse', actor: member(1), data: create })
      .refused(403, 'auth.forbidden');
  });

  it("lets only the creator or an admin change, delete or schedule a course's rounds", () => {
    const text = { courseTopic: 'New', courseDescription: 'New text' };
    given(created())
      .when({ type: 'UpdateCourse', actor: otherPartner, data: { text } })
      .refused(403, 'course.notCreator');
    given(created()).when({ type: 'DeleteCourse', actor: otherPartner, data: {} }).refused(403, 'course.notCreator');
    given(created())
      .when({ type: 'UpdateCourse', actor: admin, data: { text, status: 'private' } })
      .then([
        { type: 'CourseUpdated', data: { courseTopic: 'New', maxPeople: 2 } },
        { type: 'CourseStatusChanged', data: { status: 'private' } },
      ]);
    given(created())
      .when({ type: 'DeleteCourse', actor: partner, data: {} })
      .then([{ type: 'CourseDeleted' }]);
    given(created(), { ...created(), type: 'CourseDeleted', data: { deletedAt: now } })
      .when({ type: 'ChangeCourseStatus', actor: admin, data: { status: 'public' } })
      .refused(404, 'course.notFound');
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
      .when({ type: 'ScheduleRound', actor: partner, data: times('r2', ten, '2026-12-01T12:00:00.000Z') })
      .refused(409, 'round.overlaps');
    given(created(), round('r1', nine, ten))
      .when({ type: 'ScheduleRound', actor: partner, data: times('r2', ten, eleven) })
      .then([{ type: 'RoundScheduled', data: { roundId: 'r2' } }]);
    // Moving a round over its own old time is not an overlap.
    given(created(), round('r1', nine, ten))
      .when({ type: 'RescheduleRound', actor: partner, data: times('r1', '2026-12-01T09:30:00.000Z', eleven) })
      .then([{ type: 'RoundRescheduled' }]);
    given(created())
      .when({ type: 'CancelRound', actor: partner, data: { roundId: 'nope' } })
      .refused(404, 'round.notFound');
  });

  it('lets members enrol in public courses up to capacity, once each', () => {
    given(created())
      .when({ type: 'Enrol', actor: member(1), data: {} })
      .then([{ type: 'MemberEnrolled' }]);
    given(created(), enrolled(1))
      .when({ type: 'Enrol', actor: member(1), data: {} })
      .then([]);
    given(created(), enrolled(1), enrolled(2))
      .when({ type: 'Enrol', actor: member(3), data: {} })
      .refused(409, 'course.full');
    given(created({ maxPeople: 0 }), enrolled(1), enrolled(2))
      .when({ type: 'Enrol', actor: member(3), data: {} })
      .then([{ type: 'MemberEnrolled' }]);
    given(created({ status: 'private' }))
      .when({ type: 'Enrol', actor: member(1), data: {} })
      .refused(409, 'course.notPublic');
    given(created()).when({ type: 'Enrol', actor: partner, data: {} }).refused(403, 'auth.forbidden');
    given(created(), enrolled(1))
      .when({ type: 'Unenrol', actor: member(1), data: {} })
      .then([{ type: 'MemberUnenrolled' }]);
    given(created())
      .when({ type: 'Unenrol', actor: member(1), data: {} })
      .refused(409, 'course.notEnrolled');
  });

  it('refuses a capacity below the members already enrolled', () => {
    given(created(), enrolled(1), enrolled(2))
      .when({
        type: 'UpdateCourse',
        actor: partner,
        data: { text: { courseTopic: 'T', courseDescription: 'D', maxPeople: 1 } },
      })
      .refused(409, 'course.belowEnrolled');
  });
});
