import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import { type StoredRowOf, createTable, updateRows } from '@portal/platform/read-models/table';
import {
  courseAssistants,
  courses,
  coursesTables,
  enrolmentPeriods,
  enrolments,
  rounds,
} from '@portal/read-models/courses';
import { type Projection, readsOf } from '../../projection.ts';

/**
 * Courses, their rounds, and who is enrolled: the course list, the course details and the
 * reports read these. The attendance projection keeps the scan counts (participate, totalAttend,
 * a round's attended) up to date; absence depends on the clock and is computed by the query API.
 * `enrolment_periods` keeps when each member joined and left (several periods after leaving and
 * joining again): a member is expected in a round when a period covers the round's start.
 */
export const coursesProjection: Projection = {
  name: 'courses',
  reads: readsOf(decodeCourseEvent),
  // Attendance keeps the course and round rows' counts.
  rebuiltWith: ['attendance'],
  // Every row it writes is one course's (its count, its rounds', its members').
  byCourse: true,
  // 6: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 6,
  async createTables(sql, schema) {
    for (const table of coursesTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, _personal, batch) {
    // A course's enrolled count, once per batch for each course whose enrolments changed.
    const recount = (courseId: string) =>
      batch.after(`courses:${schema}:enrolled:${courseId}`, () => recountEnrolled(sql, schema, courseId));
    const event = decodeCourseEvent(stored);
    if (!event) return;
    const id = courseIdOf(event.streamId);
    switch (event.type) {
      case 'CourseCreated': {
        const d = event.data;
        const course: Partial<StoredRowOf<typeof courses>> = {
          id,
          topic: d.courseTopic,
          description: d.courseDescription,
          status: d.status,
          max_people: d.maxPeople,
          creator: d.creator,
          created_at: d.createdAt,
          updated_at: d.createdAt,
        };
        await batch.insert(schema, courses, course, 'ON CONFLICT (id) DO NOTHING');
        return;
      }
      case 'CourseUpdated': {
        const d = event.data;
        const set: Partial<StoredRowOf<typeof courses>> = {
          topic: d.courseTopic,
          description: d.courseDescription,
          max_people: d.maxPeople,
          updated_at: d.updatedAt,
        };
        await sql.query(...updateRows(schema, courses, set, { id }));
        return;
      }
      case 'CourseStatusChanged':
        await sql.query(
          ...updateRows(schema, courses, { status: event.data.status, updated_at: event.data.changedAt }, { id }),
        );
        return;
      case 'CourseImageChanged':
        await sql.query(
          ...updateRows(schema, courses, { image_url: event.data.imageUrl, updated_at: event.data.changedAt }, { id }),
        );
        return;
      case 'CourseDeleted':
        for (const table of [rounds, enrolments, enrolmentPeriods, courseAssistants]) {
          await sql.query(`DELETE FROM ${schema}.${table.name} WHERE course_id = $1`, [id]);
        }
        await sql.query(`DELETE FROM ${schema}.courses WHERE id = $1`, [id]);
        return;
      case 'RoundScheduled':
      case 'RoundRescheduled': {
        const d = event.data;
        await batch.insert(
          schema,
          rounds,
          { id: d.roundId, course_id: id, starts_at: d.roundStartTime, ends_at: d.roundEndTime },
          'ON CONFLICT (id) DO UPDATE SET starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at',
        );
        return;
      }
      case 'RoundCancelled':
        await sql.query(`DELETE FROM ${schema}.rounds WHERE id = $1`, [event.data.roundId]);
        return;
      case 'MemberEnrolled': {
        const enrolment: StoredRowOf<typeof enrolments> = {
          course_id: id,
          member_id: event.data.memberId,
          enrolled_at: event.data.enrolledAt,
        };
        await batch.insert(schema, enrolments, enrolment, 'ON CONFLICT DO NOTHING');
        // The course's stream decides enrolments in order, so an open period is never opened twice.
        const period: StoredRowOf<typeof enrolmentPeriods> = { ...enrolment, left_at: null };
        await batch.insert(schema, enrolmentPeriods, period, 'ON CONFLICT DO NOTHING');
        recount(id);
        return;
      }
      case 'MemberUnenrolled':
        await sql.query(`DELETE FROM ${schema}.enrolments WHERE course_id = $1 AND member_id = $2`, [
          id,
          event.data.memberId,
        ]);
        await sql.query(
          `UPDATE ${schema}.enrolment_periods SET left_at = $3
            WHERE course_id = $1 AND member_id = $2 AND left_at IS NULL`,
          [id, event.data.memberId, event.data.unenrolledAt],
        );
        recount(id);
        return;
      case 'AssistantAdded':
        await sql.query(
          `INSERT INTO ${schema}.course_assistants (course_id, assistant_id, added_by, added_at)
           SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM ${schema}.courses WHERE id = $1)
           ON CONFLICT DO NOTHING`,
          [id, event.data.assistantId, event.data.addedBy, event.data.addedAt],
        );
        return;
      case 'AssistantRemoved':
        await sql.query(`DELETE FROM ${schema}.course_assistants WHERE course_id = $1 AND assistant_id = $2`, [
          id,
          event.data.assistantId,
        ]);
        return;
      case 'SelfCheckInConfigured': {
        const { location, onePerDevice } = event.data;
        await sql.query(...updateRows(schema, courses, { self_check_in: { location, onePerDevice } }, { id }));
        return;
      }
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};

async function recountEnrolled(sql: Parameters<Projection['apply']>[0], schema: string, courseId: string) {
  await sql.query(
    `UPDATE ${schema}.courses SET enrolled = (SELECT count(*) FROM ${schema}.enrolments WHERE course_id = $1) WHERE id = $1`,
    [courseId],
  );
}
