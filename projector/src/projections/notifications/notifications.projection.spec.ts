import { describe, expect, it } from 'vitest';
import {
  CourseCreated,
  CourseDeleted,
  MemberEnrolled,
  MemberUnenrolled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import { NotificationsRead, inboxStream } from '@portal/contracts/notifications/notification.events';
import { projectionSpecification } from '../../testing/projection-specification.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 8, minute)).toISOString();

/**
 * Who hears of what, from a small story: p1 creates Pottery, m1 and m2 enrol, m2 leaves, a round
 * is added, the course is deleted. Admins hear of everything, the creator of enrolments and
 * changes, and only members still enrolled of the round and the deletion.
 */
describe('the notifications projection', () => {
  const spec = projectionSpecification();
  const notices = () =>
    spec.rows<{ id: string; type: string; detail: string | null; course_topic: string; audience: string[] }>(
      `SELECT n.id, n.type, n.detail, n.course_topic, array_agg(a.audience ORDER BY a.audience) AS audience
         FROM rm.notifications n JOIN rm.notification_audience a ON a.notification_id = n.id
        GROUP BY n.id ORDER BY n.id::bigint`,
    );

  it('tells each audience what concerns them, and keeps what each person has read', async () => {
    await spec.given([
      'course-n1',
      [
        CourseCreated.create({
          courseTopic: 'Pottery',
          courseDescription: '',
          maxPeople: 0,
          status: 'public',
          creator: 'p1',
          createdAt: at(1),
        }),
        MemberEnrolled.create({ memberId: 'm1', enrolledAt: at(2) }),
        MemberEnrolled.create({ memberId: 'm2', enrolledAt: at(3) }),
        MemberUnenrolled.create({ memberId: 'm2', unenrolledAt: at(4) }),
        RoundScheduled.create({ roundId: 'q1', roundStartTime: at(30), roundEndTime: at(40), scheduledAt: at(5) }),
        CourseDeleted.create({ deletedAt: at(6) }),
      ],
    ]);
    const found = await notices();
    expect(found.map(({ type, detail, course_topic, audience }) => ({ type, detail, course_topic, audience }))).toEqual(
      [
        { type: 'course_created', detail: null, course_topic: 'Pottery', audience: ['role:admin'] },
        { type: 'new_enrollment', detail: null, course_topic: 'Pottery', audience: ['role:admin', 'user:p1'] },
        { type: 'new_enrollment', detail: null, course_topic: 'Pottery', audience: ['role:admin', 'user:p1'] },
        {
          type: 'course_updated',
          detail: 'roundAdded',
          course_topic: 'Pottery',
          audience: ['role:admin', 'user:m1', 'user:p1'],
        },
        {
          type: 'course_deleted',
          detail: null,
          course_topic: 'Pottery',
          audience: ['role:admin', 'user:m1', 'user:p1'],
        },
      ],
    );
    const roundAdded = found[3]!.id;
    await spec.given([inboxStream('m1'), [NotificationsRead.create({ ids: [roundAdded], readAt: at(7) })]]);
    expect(await spec.rows(`SELECT account_id, notification_id FROM rm.notification_reads`)).toEqual([
      { account_id: 'm1', notification_id: roundAdded },
    ]);
  });
});
