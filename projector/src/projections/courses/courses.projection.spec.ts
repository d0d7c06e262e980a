import { describe, expect, it } from 'vitest';
import {
  AssistantAdded,
  AssistantRemoved,
  CourseCreated,
  CourseDeleted,
  CourseStatusChanged,
  MemberEnrolled,
  MemberUnenrolled,
  RoundCancelled,
  RoundRescheduled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import { projectionSpecification } from '../../testing/projection-specification.ts';

const t = (hour: number) => new Date(Date.UTC(2026, 10, 24, hour)).toISOString();

/** The courses read model, from a small story worked out by hand. */
describe('the courses projection', () => {
  const spec = projectionSpecification();

  it('keeps a course, its rounds, who is enrolled now and every period they were', async () => {
    await spec.given([
      'course-c1',
      [
        CourseCreated.create({
          courseTopic: 'Knife skills',
          courseDescription: 'Dicing',
          maxPeople: 3,
          status: 'public',
          creator: 'p1',
          createdAt: t(1),
        }),
        RoundScheduled.create({ roundId: 'r1', roundStartTime: t(9), roundEndTime: t(10), scheduledAt: t(1) }),
        RoundScheduled.create({ roundId: 'r2', roundStartTime: t(11), roundEndTime: t(12), scheduledAt: t(1) }),
        RoundScheduled.create({ roundId: 'r3', roundStartTime: t(13), roundEndTime: t(14), scheduledAt: t(1) }),
        MemberEnrolled.create({ memberId: 'm1', enrolledAt: t(2) }),
        MemberEnrolled.create({ memberId: 'm2', enrolledAt: t(2) }),
        MemberUnenrolled.create({ memberId: 'm2', unenrolledAt: t(3) }),
        MemberEnrolled.create({ memberId: 'm2', enrolledAt: t(4) }),
        MemberUnenrolled.create({ memberId: 'm2', unenrolledAt: t(5) }),
        MemberEnrolled.create({ memberId: 'm3', enrolledAt: t(9), walkIn: true, enrolledBy: 'p1' }),
        RoundRescheduled.create({ roundId: 'r2', roundStartTime: t(15), roundEndTime: t(16), rescheduledAt: t(6) }),
        RoundCancelled.create({ roundId: 'r3', cancelledAt: t(6) }),
        CourseStatusChanged.create({ status: 'private', changedAt: t(7) }),
        AssistantAdded.create({ assistantId: 'a1', addedBy: 'p1', addedAt: t(7) }),
        AssistantAdded.create({ assistantId: 'a2', addedBy: 'p1', addedAt: t(7) }),
        AssistantRemoved.create({ assistantId: 'a1', removedBy: 'p1', removedAt: t(8) }),
      ],
    ]);
    expect(await spec.rows(`SELECT id, topic, status, max_people, creator, enrolled FROM rm.courses`)).toEqual([
      { id: 'c1', topic: 'Knife skills', status: 'private', max_people: 3, creator: 'p1', enrolled: 2 },
    ]);
    const rounds = await spec.rows<{ id: string; starts_at: Date }>(
      `SELECT id, starts_at FROM rm.rounds WHERE course_id = 'c1' ORDER BY starts_at`,
    );
    expect(rounds.map((r) => [r.id, new Date(r.starts_at).toISOString()])).toEqual([
      ['r1', t(9)],
      ['r2', t(15)],
    ]);
    expect(await spec.rows(`SELECT member_id FROM rm.enrolments WHERE course_id = 'c1' ORDER BY member_id`)).toEqual([
      { member_id: 'm1' },
      { member_id: 'm3' },
    ]);
    const periods = await spec.rows<{ member_id: string; enrolled_at: Date; left_at: Date | null }>(
      `SELECT member_id, enrolled_at, left_at FROM rm.enrolment_periods WHERE course_id = 'c1'
        ORDER BY member_id, enrolled_at`,
    );
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    expect(periods.map((p) => [p.member_id, iso(p.enrolled_at), iso(p.left_at)])).toEqual([
      ['m1', t(2), null],
      ['m2', t(2), t(3)],
      ['m2', t(4), t(5)],
      ['m3', t(9), null],
    ]);
    expect(await spec.rows(`SELECT assistant_id FROM rm.course_assistants WHERE course_id = 'c1'`)).toEqual([
      { assistant_id: 'a2' },
    ]);
  });

  it('forgets a deleted course with its rounds, enrolments and assistants', async () => {
    await spec.given(['course-c1', [CourseDeleted.create({ deletedAt: t(20) })]]);
    for (const table of ['courses', 'rounds', 'enrolments', 'enrolment_periods', 'course_assistants']) {
      const column = table === 'courses' ? 'id' : 'course_id';
      expect(await spec.rows(`SELECT 1 FROM rm.${table} WHERE ${column} = 'c1'`), table).toEqual([]);
    }
  });
});
