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
import { type Batch, type Projection, readsOf, someOf } from '../../projection.ts';

interface Notice {
  type: NotificationType;
  courseId?: string | null;
  /** The member it is about (an enrolment, a registration); their name is read when shown. */
  subjectId?: string | null;
  detail?: string | null;
  /** Who hears of it: 'role:admin', or 'user:<account id>'. */
  audience: string[];
}

/** Of the accounts' events, the registrations and approvals: the others notify nobody. */
const ACCOUNT_TYPES = someOf(decodeAccountEvent, 'MemberRegistered', 'PartnerRegistered', 'MemberApproved');
const READS = readsOf(decodeNotificationEvent, ACCOUNT_TYPES, decodeCourseEvent);

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
  reads: READS,
  // What it keeps of a course (notify_courses, notify_enrolments) is that course's; a notification's
  // rows are keyed by its event's position, and inboxes and accounts are about no course (one lane).
  byCourse: true,
  // 3: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 3,
  async createTables(sql, schema) {
    for (const table of notificationsTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, _personal, batch) {
    const courses = coursesOf(batch, sql, schema);
    const read = decodeNotificationEvent(stored);
    if (read) {
      const owner = inboxOwnerOf(read.streamId);
      if (read.type === 'NotificationsRead') {
        for (const id of read.data.ids) {
          await batch.insert(
            schema,
            notificationReads,
            { account_id: owner, notification_id: id },
            'ON CONFLICT DO NOTHING',
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
    const account = ACCOUNT_TYPES.types.has(stored.type) ? decodeAccountEvent(stored) : null;
    if (account) {
      const id = accountIdOf(account.streamId);
      if (account.type === 'MemberRegistered' || account.type === 'PartnerRegistered') {
        await notify(batch, schema, courses, stored, {
          type: 'new_registration',
          subjectId: id,
          audience: ['role:admin'],
        });
      } else if (account.type === 'MemberApproved') {
        await notify(batch, schema, courses, stored, {
          type: 'registration_approved',
          subjectId: id,
          audience: [`user:${id}`],
        });
      }
      return;
    }
    const event = decodeCourseEvent(stored);
    if (!event) return;
    const courseId = courseIdOf(event.streamId);
    const course = () => courses.get(courseId);
    const members = async () => [...(await courses.members(courseId))].map((member) => `user:${member}`);
    const changed = async (detail: string) => {
      const known = await course();
      if (!known) return;
      await notify(batch, schema, courses, stored, {
        type: 'course_updated',
        courseId,
        detail,
        audience: ['role:admin', `user:${known.creator}`, ...(await members())],
      });
    };
    switch (event.type) {
      case 'CourseCreated':
        if (!(await course())) {
          // A course's stream starts with its creation: nobody is enrolled yet.
          courses.set(courseId, { creator: event.data.creator, topic: event.data.courseTopic }, new Set());
          await batch.insert(
            schema,
            notifyCourses,
            { course_id: courseId, creator: event.data.creator, topic: event.data.courseTopic },
            'ON CONFLICT DO NOTHING',
          );
        }
        await notify(batch, schema, courses, stored, { type: 'course_created', courseId, audience: ['role:admin'] });
        return;
      case 'CourseUpdated': {
        await sql.query(
          ...updateRows(schema, notifyCourses, { topic: event.data.courseTopic }, { course_id: courseId }),
        );
        const known = await course();
        if (known) courses.set(courseId, { ...known, topic: event.data.courseTopic });
        await changed('details');
        return;
      }
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
        await notify(batch, schema, courses, stored, {
          type: 'course_deleted',
          courseId,
          audience: ['role:admin', `user:${known.creator}`, ...(await members())],
        });
        await sql.query(`DELETE FROM ${schema}.notify_enrolments WHERE course_id = $1`, [courseId]);
        (await courses.members(courseId)).clear();
        return;
      }
      case 'MemberEnrolled': {
        await batch.insert(
          schema,
          notifyEnrolments,
          { course_id: courseId, member_id: event.data.memberId },
          'ON CONFLICT DO NOTHING',
        );
        (await courses.members(courseId)).add(event.data.memberId);
        const known = await course();
        if (!known) return;
        await notify(batch, schema, courses, stored, {
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
        (await courses.members(courseId)).delete(event.data.memberId);
        return;
      case 'AssistantAdded':
        // The new assistant learns where to scan (their home lists the course's rounds).
        await notify(batch, schema, courses, stored, {
          type: 'assistant_added',
          courseId,
          audience: [`user:${event.data.assistantId}`],
        });
        return;
      case 'CourseImageChanged':
      case 'AssistantRemoved':
      case 'SelfCheckInConfigured':
        return;
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};

/** One notification (its id is the event's position) and who hears of it. */
async function notify(batch: Batch, schema: string, courses: KnownCourses, stored: StoredEvent, notice: Notice) {
  const id = String(stored.position);
  const topic = notice.courseId ? ((await courses.get(notice.courseId))?.topic ?? null) : null;
  await batch.insert(
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
  );
  for (const audience of new Set(notice.audience)) {
    await batch.insert(schema, notificationAudience, { notification_id: id, audience }, 'ON CONFLICT DO NOTHING');
  }
}

/**
 * Each course's creator and topic, and its members (notify_courses and notify_enrolments, which
 * only this projection writes), read once per batch and kept as the batch changes them.
 */
interface KnownCourses {
  get(courseId: string): Promise<{ creator: string; topic: string } | undefined>;
  set(courseId: string, course: { creator: string; topic: string }, members?: Set<string>): void;
  members(courseId: string): Promise<Set<string>>;
}

const knownCoursesOfBatch = new WeakMap<Batch, KnownCourses>();

function coursesOf(batch: Batch, sql: Sql, schema: string): KnownCourses {
  const existing = knownCoursesOfBatch.get(batch);
  if (existing) return existing;
  const known = new Map<string, { creator: string; topic: string } | undefined>();
  const members = new Map<string, Promise<Set<string>>>();
  const courses: KnownCourses = {
    async get(courseId) {
      if (!known.has(courseId)) {
        const [row] = await sql.query<{ creator: string; topic: string }>(
          `SELECT creator, topic FROM ${schema}.notify_courses WHERE course_id = $1`,
          [courseId],
        );
        known.set(courseId, row);
      }
      return known.get(courseId);
    },
    set(courseId, course, enrolled) {
      known.set(courseId, course);
      if (enrolled) members.set(courseId, Promise.resolve(enrolled));
    },
    members(courseId) {
      let found = members.get(courseId);
      if (!found) {
        found = sql
          .query<{ member_id: string }>(`SELECT member_id FROM ${schema}.notify_enrolments WHERE course_id = $1`, [
            courseId,
          ])
          .then((rows) => new Set(rows.map((row) => row.member_id)));
        members.set(courseId, found);
      }
      return found;
    },
  };
  knownCoursesOfBatch.set(batch, courses);
  return courses;
}
