import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { Projection } from '../../projection.ts';

/**
 * Courses, their rounds, and who is enrolled: the course list, the course details and the
 * reports read these. The attendance projection keeps the scan counts (participate, totalAttend,
 * a round's attended) up to date; absence depends on the clock and is computed by the query API.
 * `enrolment_periods` keeps when each member joined and left (several periods after leaving and
 * joining again): a member is expected in a round when a period covers the round's start.
 */
export const coursesProjection: Projection = {
  name: 'courses',
  version: 4,
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.courses (
      id text PRIMARY KEY,
      topic text NOT NULL,
      description text NOT NULL,
      image_url text,
      status text NOT NULL,
      max_people integer NOT NULL,
      creator text NOT NULL,
      enrolled integer NOT NULL DEFAULT 0,
      participate integer NOT NULL DEFAULT 0,
      total_attend integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      search_text text GENERATED ALWAYS AS (lower(topic || ' ' || description)) STORED
    )`);
    // The list's three orders, each with the id as the tie-break the query uses.
    for (const [name, column] of [
      ['topic', 'lower(topic)'],
      ['participate', 'participate'],
      ['created', 'created_at'],
    ]) {
      await sql.query(`CREATE INDEX IF NOT EXISTS courses_by_${name} ON ${schema}.courses (${column}, id)`);
    }
    // The partner's home: one person's courses, newest first.
    await sql.query(`CREATE INDEX IF NOT EXISTS courses_by_creator ON ${schema}.courses (creator, created_at)`);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.rounds (
      id text PRIMARY KEY,
      course_id text NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      attended integer NOT NULL DEFAULT 0
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS rounds_course ON ${schema}.rounds (course_id, starts_at)`);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.enrolments (
      course_id text NOT NULL,
      member_id text NOT NULL,
      enrolled_at timestamptz NOT NULL,
      PRIMARY KEY (course_id, member_id)
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS enrolments_member ON ${schema}.enrolments (member_id)`);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.enrolment_periods (
      course_id text NOT NULL,
      member_id text NOT NULL,
      enrolled_at timestamptz NOT NULL,
      left_at timestamptz,
      PRIMARY KEY (course_id, member_id, enrolled_at)
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS enrolment_periods_member ON ${schema}.enrolment_periods (member_id, course_id)`,
    );
    // Scan-only assistants of each course (issue 18): who may open its rounds and scan.
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.course_assistants (
      course_id text NOT NULL,
      assistant_id text NOT NULL,
      added_by text NOT NULL,
      added_at timestamptz NOT NULL,
      PRIMARY KEY (course_id, assistant_id)
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS course_assistants_assistant ON ${schema}.course_assistants (assistant_id)`,
    );
  },
  async apply(sql, schema, stored) {
    const event = decodeCourseEvent(stored);
    if (!event) return;
    const id = courseIdOf(event.streamId);
    switch (event.type) {
      case 'CourseCreated': {
        const d = event.data;
        await sql.query(
          `INSERT INTO ${schema}.courses (id, topic, description, status, max_people, creator, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
          [id, d.courseTopic, d.courseDescription, d.status, d.maxPeople, d.creator, d.createdAt],
        );
        return;
      }
      case 'CourseUpdated': {
        const d = event.data;
        await sql.query(
          `UPDATE ${schema}.courses SET topic = $2, description = $3, max_people = $4, updated_at = $5 WHERE id = $1`,
          [id, d.courseTopic, d.courseDescription, d.maxPeople, d.updatedAt],
        );
        return;
      }
      case 'CourseStatusChanged':
        await sql.query(`UPDATE ${schema}.courses SET status = $2, updated_at = $3 WHERE id = $1`, [
          id,
          event.data.status,
          event.data.changedAt,
        ]);
        return;
      case 'CourseImageChanged':
        await sql.query(`UPDATE ${schema}.courses SET image_url = $2, updated_at = $3 WHERE id = $1`, [
          id,
          event.data.imageUrl,
          event.data.changedAt,
        ]);
        return;
      case 'CourseDeleted':
        for (const table of ['rounds', 'enrolments', 'enrolment_periods', 'course_assistants']) {
          await sql.query(`DELETE FROM ${schema}.${table} WHERE course_id = $1`, [id]);
        }
        await sql.query(`DELETE FROM ${schema}.courses WHERE id = $1`, [id]);
        return;
      case 'RoundScheduled':
      case 'RoundRescheduled': {
        const d = event.data;
        await sql.query(
          `INSERT INTO ${schema}.rounds (id, course_id, starts_at, ends_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (id) DO UPDATE SET starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at`,
          [d.roundId, id, d.roundStartTime, d.roundEndTime],
        );
        return;
      }
      case 'RoundCancelled':
        await sql.query(`DELETE FROM ${schema}.rounds WHERE id = $1`, [event.data.roundId]);
        return;
      case 'MemberEnrolled':
        await sql.query(
          `INSERT INTO ${schema}.enrolments (course_id, member_id, enrolled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [id, event.data.memberId, event.data.enrolledAt],
        );
        // The course's stream decides enrolments in order, so an open period is never opened twice.
        await sql.query(
          `INSERT INTO ${schema}.enrolment_periods (course_id, member_id, enrolled_at) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING`,
          [id, event.data.memberId, event.data.enrolledAt],
        );
        await recountEnrolled(sql, schema, id);
        return;
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
        await recountEnrolled(sql, schema, id);
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
