import { accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import {
  type NotificationType,
  decodeNotificationEvent,
  inboxOwnerOf,
} from '@portal/contracts/notifications/notification.events';
import type { Sql } from '@portal/platform/store/sql';
import { createTable, insertRow, updateRows } from '@portal/platform/read-models/table';
import {
  notificationAudience,
  notificationReadAll,
  notificationReads,
  notifications,
  notificationsTables,
  notifyCourses,
  notifyEnrolments,
} from '@portal/read-models/notifications';
import type { Projection } from '../../projection.ts';

interface Notice {
  type: NotificationType;
  courseId?: string | null;
  /** The member it is about (an enrolment, a registration); their name is read when shown. */
  subjectId?: string | null;
  detail?: string | null;
  /** Who hears of it: 'role:admin', or 'user:<account id>'. */
  audience: string[];
}

/**
 * Notifications per person, derived from what happened (DESIGN: built from events): admins hear
 * of every course change, new enrolment and registration; a course's creator of changes others
 * make to it and of new enrolments; enrolled members of changes to their courses; a member of
 * their approval. The one who did it is not told (the query leaves out their own actions).
 * Keeps its own copy of who created and who is enrolled in each course, so a deleted course
 * still reaches its members. Read state comes from each person's inbox stream.
 */
export const notificationsProjection: Projection = {
  name: 'notifications',
  version: 2,
  async createTables(sql, schema) {
    for (const table of notificationsTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, _personal) {
    const read = decodeNotificationEvent(stored);
    if (read) {
      const owner = inboxOwnerOf(read.streamId);
      if (read.type === 'NotificationsRead') {
        for (const id of read.data.ids) {
          await sql.query(
            ...insertRow(
              schema,
              notificationReads,
              { account_id: owner, notification_id: id },
              'ON CONFLICT DO NOTHING',
            ),
          );
        }
      } else {
        await sql.query(
          ...insertRow(
            schema,
            notificationReadAll,
            { account_id: owner, read_at: read.data.readAt },
            `ON CONFLICT (account_id) DO UPDATE SET read_at = greatest(${schema}.notification_read_all.read_at, EXCLUDED.read_at)`,
          ),
        );
      }
      return;
    }
    const account = decodeAccountEvent(stored);
    if (account) {
      const id = accountIdOf(account.streamId);
      if (account.type === 'MemberRegistered' || account.type === 'PartnerRegistered') {
        await notify(sql, schema, stored, { type: 'new_registration', subjectId: id, audience: ['role:admin'] });
      } else if (account.type === 'MemberApproved') {
        await notify(sql, schema, stored, { type: 'registration_approved', subjectId: id, audience: [`user:${id}`] });
      }
      return;
    }
    const event = decodeCourseEvent(stored);
    if (!event) return;
    const courseId = courseIdOf(event.streamId);
    const course = async () =>
      (
        await sql.query<{ creator: string; topic: string }>(
          `SELECT creator, topic FROM ${schema}.notify_courses WHERE course_id = $1`,
          [courseId],
        )
      )[0];
    const members = async () =>
      (
        await sql.query<{ member_id: string }>(
          `SELECT member_id FROM ${schema}.notify_enrolments WHERE course_id = $1`,
          [courseId],
        )
      ).map((row) => `user:${row.member_id}`);
    const changed = async (detail: string) => {
      const known = await course();
      if (!known) return;
      await notify(sql, schema, stored, {
        type: 'course_updated',
        courseId,
        detail,
        audience: ['role:admin', `user:${known.creator}`, ...(await members())],
      });
    };
    switch (event.type) {
      case 'CourseCreated':
        await sql.query(
          ...insertRow(
            schema,
            notifyCourses,
            { course_id: courseId, creator: event.data.creator, topic: event.data.courseTopic },
            'ON CONFLICT DO NOTHING',
          ),
        );
        await notify(sql, schema, stored, { type: 'course_created', courseId, audience: ['role:admin'] });
        return;
      case 'CourseUpdated':
        await sql.query(
          ...updateRows(schema, notifyCourses, { topic: event.data.courseTopic }, { course_id: courseId }),
        );
        await changed('details');
        return;
      case 'CourseStatusChanged':
        await changed(event.data.status);
        return;
      case 'RoundScheduled':
        await changed('roundAdded');
        return;
      case 'RoundRescheduled':
        await changed('roundMoved');
        return;
      case 'RoundCancelled':
        await changed('roundCancelled');
        return;
      case 'CourseDeleted': {
        const known = await course();
        if (!known) return;
        await notify(sql, schema, stored, {
          type: 'course_deleted',
          courseId,
          audience: ['role:admin', `user:${known.creator}`, ...(await members())],
        });
        await sql.query(`DELETE FROM ${schema}.notify_enrolments WHERE course_id = $1`, [courseId]);
        return;
      }
      case 'MemberEnrolled': {
        await sql.query(
          ...insertRow(
            schema,
            notifyEnrolments,
            { course_id: courseId, member_id: event.data.memberId },
            'ON CONFLICT DO NOTHING',
          ),
        );
        const known = await course();
        if (!known) return;
        await notify(sql, schema, stored, {
          type: 'new_enrollment',
          courseId,
          subjectId: event.data.memberId,
          audience: ['role:admin', `user:${known.creator}`],
        });
        return;
      }
      case 'MemberUnenrolled':
        await sql.query(`DELETE FROM ${schema}.notify_enrolments WHERE course_id = $1 AND member_id = $2`, [
          courseId,
          event.data.memberId,
        ]);
        return;
      case 'AssistantAdded':
        // The new assistant learns where to scan (their home lists the course's rounds).
        await notify(sql, schema, stored, {
          type: 'assistant_added',
          courseId,
          audience: [`user:${event.data.assistantId}`],
        });
        return;
      case 'CourseImageChanged':
      case 'AssistantRemoved':
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};

/** One notification (its id is the event's position) and who hears of it. */
async function notify(sql: Sql, schema: string, stored: StoredEvent, notice: Notice): Promise<void> {
  const id = String(stored.position);
  const topic = notice.courseId
    ? ((
        await sql.query<{ topic: string }>(`SELECT topic FROM ${schema}.notify_courses WHERE course_id = $1`, [
          notice.courseId,
        ])
      )[0]?.topic ?? null)
    : null;
  await sql.query(
    ...insertRow(
      schema,
      notifications,
      {
        id,
        type: notice.type,
        course_id: notice.courseId ?? null,
        course_topic: topic,
        subject_id: notice.subjectId ?? null,
        detail: notice.detail ?? null,
        actor_id: stored.metadata.actorId ?? null,
        created_at: stored.createdAt,
      },
      'ON CONFLICT (id) DO NOTHING',
    ),
  );
  for (const audience of new Set(notice.audience)) {
    await sql.query(
      ...insertRow(schema, notificationAudience, { notification_id: id, audience }, 'ON CONFLICT DO NOTHING'),
    );
  }
}
