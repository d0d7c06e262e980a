import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { Sql } from '@portal/platform/store/sql';
import type { Projection } from '../../projection.ts';

/**
 * Attendance: who counts as present in each round (`attendance`, voided scans kept but marked),
 * every attempt for the audit (`scan_attempts`: accepted, refused with the reason, voided), and
 * the counts the course list and details show (shared/DESIGN.md, count semantics): a round's
 * attended, a course's participate (distinct members) and totalAttend (accepted scans).
 * Absence depends on the clock (a round must have ended), so the query API computes it.
 */
export const attendanceProjection: Projection = {
  name: 'attendance',
  version: 3,
  async createTables(sql, schema) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.attendance (
      round_id text NOT NULL,
      member_id text NOT NULL,
      course_id text NOT NULL,
      scanned_at timestamptz NOT NULL,
      scanner_id text NOT NULL,
      method text NOT NULL,
      late boolean NOT NULL,
      walk_in boolean NOT NULL,
      voided_at timestamptz,
      PRIMARY KEY (round_id, member_id)
    )`);
    await sql.query(`CREATE INDEX IF NOT EXISTS attendance_course ON ${schema}.attendance (course_id)`);
    await sql.query(`CREATE INDEX IF NOT EXISTS attendance_member ON ${schema}.attendance (member_id)`);
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.scan_attempts (
      position bigint PRIMARY KEY,
      course_id text NOT NULL,
      round_id text NOT NULL,
      member_id text,
      scanner_id text NOT NULL,
      device_id text,
      method text,
      outcome text NOT NULL,
      reason text,
      device_time timestamptz,
      server_time timestamptz NOT NULL,
      late_uploaded boolean NOT NULL DEFAULT false,
      offline_decision text
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS scan_attempts_round ON ${schema}.scan_attempts (round_id, server_time)`,
    );
    // The audit's date filter and the overview's scans per day.
    await sql.query(`CREATE INDEX IF NOT EXISTS scan_attempts_time ON ${schema}.scan_attempts (server_time)`);
    // Deleted courses and cancelled rounds: a scan of theirs that arrives later (from another
    // Kafka partition than the deletion) must not bring their attendance back.
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.attendance_closed (
      scope text NOT NULL,
      id text NOT NULL,
      PRIMARY KEY (scope, id)
    )`);
  },
  async apply(sql, schema, stored, _personal, batch) {
    const recount = (courseId: string, roundId: string) => {
      batch.after(`attendance:${schema}:round:${roundId}`, () => recountRound(sql, schema, roundId));
      batch.after(`attendance:${schema}:course:${courseId}`, () => recountCourse(sql, schema, courseId));
    };
    const close = (scope: 'course' | 'round', id: string) =>
      sql.query(`INSERT INTO ${schema}.attendance_closed (scope, id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
        scope,
        id,
      ]);
    const course = decodeCourseEvent(stored);
    switch (course?.type) {
      case 'CourseDeleted':
        await close('course', courseIdOf(course.streamId));
        await sql.query(`DELETE FROM ${schema}.attendance WHERE course_id = $1`, [courseIdOf(course.streamId)]);
        return;
      case 'RoundCancelled':
        await close('round', course.data.roundId);
        await sql.query(`DELETE FROM ${schema}.attendance WHERE round_id = $1`, [course.data.roundId]);
        recount(courseIdOf(course.streamId), course.data.roundId);
        return;
      // Scans may have arrived before the course or the round did (from another partition).
      case 'CourseCreated':
        batch.after(`attendance:${schema}:course:${courseIdOf(course.streamId)}`, () =>
          recountCourse(sql, schema, courseIdOf(course.streamId)),
        );
        return;
      case 'RoundScheduled':
        recount(courseIdOf(course.streamId), course.data.roundId);
        return;
      default:
        if (course) return;
    }
    const event = decodeAttendanceEvent(stored);
    if (!event) return;
    const { courseId, roundId } = event.data;
    const attempt = (row: Attempt) =>
      sql.query(
        `INSERT INTO ${schema}.scan_attempts (position, course_id, round_id, member_id, scanner_id, outcome, reason,
           server_time, device_id, method, device_time, late_uploaded, offline_decision)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT (position) DO NOTHING`,
        [
          stored.position,
          courseId,
          roundId,
          row.memberId,
          row.scannerId,
          row.outcome,
          row.reason,
          row.serverTime,
          row.deviceId ?? null,
          row.method ?? null,
          row.deviceTime ?? null,
          row.lateUploaded ?? false,
          row.offlineDecision ?? null,
        ],
      );
    switch (event.type) {
      case 'AttendanceScanned': {
        const e = event.data;
        await sql.query(
          `INSERT INTO ${schema}.attendance (round_id, member_id, course_id, scanned_at, scanner_id, method, late, walk_in)
           SELECT $1, $2, $3, $4::timestamptz, $5, $6, $7::boolean, $8::boolean
            WHERE NOT EXISTS (SELECT 1 FROM ${schema}.attendance_closed
                               WHERE (scope = 'round' AND id = $1) OR (scope = 'course' AND id = $3))
           ON CONFLICT (round_id, member_id) DO UPDATE SET scanned_at = EXCLUDED.scanned_at,
             scanner_id = EXCLUDED.scanner_id, method = EXCLUDED.method, late = EXCLUDED.late,
             walk_in = EXCLUDED.walk_in, voided_at = NULL`,
          [e.roundId, e.memberId, e.courseId, e.scannedAt, e.scannerId, e.method, e.late, e.walkIn],
        );
        await attempt({ ...e, outcome: 'accepted', reason: null });
        recount(e.courseId, e.roundId);
        return;
      }
      case 'ScanRefused': {
        const e = event.data;
        await attempt({ ...e, outcome: 'refused' });
        return;
      }
      case 'AttendanceVoided': {
        const e = event.data;
        await sql.query(`UPDATE ${schema}.attendance SET voided_at = $3 WHERE round_id = $1 AND member_id = $2`, [
          e.roundId,
          e.memberId,
          e.voidedAt,
        ]);
        await attempt({ ...e, outcome: 'voided', scannerId: e.voidedBy, serverTime: e.voidedAt });
        recount(e.courseId, e.roundId);
        return;
      }
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};

interface Attempt {
  outcome: 'accepted' | 'refused' | 'voided';
  reason: string | null;
  memberId: string | null;
  scannerId: string;
  serverTime: string;
  deviceId?: string;
  method?: string;
  deviceTime?: string;
  lateUploaded?: boolean;
  offlineDecision?: string | null;
}

/**
 * A round's count and a course's counts, from the attendance that stands (not voided, round not
 * cancelled); once per batch for each round and course a batch touched. Counting what is stored,
 * rather than adding to a total, gives the same result whichever stream's events came first.
 */
async function recountRound(sql: Sql, schema: string, roundId: string) {
  await dropClosed(sql, schema, 'round_id', roundId);
  await sql.query(
    `UPDATE ${schema}.rounds SET attended = (
       SELECT count(*) FROM ${schema}.attendance WHERE round_id = $1 AND voided_at IS NULL) WHERE id = $1`,
    [roundId],
  );
}

async function recountCourse(sql: Sql, schema: string, courseId: string) {
  await dropClosed(sql, schema, 'course_id', courseId);
  await sql.query(
    `UPDATE ${schema}.courses c SET
       participate = counts.members, total_attend = counts.scans
     FROM (SELECT count(DISTINCT a.member_id) AS members, count(*) AS scans
             FROM ${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id
            WHERE a.course_id = $1 AND a.voided_at IS NULL) counts
     WHERE c.id = $1`,
    [courseId],
  );
}

/**
 * Removes attendance of a deleted course or a cancelled round that a scan applied at the same
 * time as the deletion (by another projector, each not seeing the other's rows) left behind;
 * runs under the course's lock, so the later of the two always sees the other's rows.
 */
async function dropClosed(sql: Sql, schema: string, column: 'round_id' | 'course_id', id: string) {
  await sql.query(
    `DELETE FROM ${schema}.attendance a WHERE a.${column} = $1 AND EXISTS (
       SELECT 1 FROM ${schema}.attendance_closed c
        WHERE (c.scope = 'course' AND c.id = a.course_id) OR (c.scope = 'round' AND c.id = a.round_id))`,
    [id],
  );
}
