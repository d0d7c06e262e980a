import { decodeAttendanceEvent } from '@portal/events/attendance/attendance.events';
import { courseIdOf, decodeCourseEvent } from '@portal/events/courses/course.events';
import type { Sql } from '@portal/events/store/sql';
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
  version: 1,
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
      late_uploaded boolean NOT NULL DEFAULT false
    )`);
    await sql.query(
      `CREATE INDEX IF NOT EXISTS scan_attempts_round ON ${schema}.scan_attempts (round_id, server_time)`,
    );
    // The audit's date filter and the overview's scans per day.
    await sql.query(`CREATE INDEX IF NOT EXISTS scan_attempts_time ON ${schema}.scan_attempts (server_time)`);
  },
  async apply(sql, schema, stored, _personal, batch) {
    const recount = (courseId: string, roundId: string) =>
      batch.after(`attendance:${schema}:${roundId}`, () => recountRound(sql, schema, courseId, roundId));
    const course = decodeCourseEvent(stored);
    if (course?.type === 'CourseDeleted') {
      await sql.query(`DELETE FROM ${schema}.attendance WHERE course_id = $1`, [courseIdOf(course.streamId)]);
      return;
    }
    if (course?.type === 'RoundCancelled') {
      await sql.query(`DELETE FROM ${schema}.attendance WHERE round_id = $1`, [course.data.roundId]);
      recount(courseIdOf(course.streamId), course.data.roundId);
      return;
    }
    const event = decodeAttendanceEvent(stored);
    if (!event) return;
    const { courseId, roundId } = event.data;
    const attempt = (row: Attempt) =>
      sql.query(
        `INSERT INTO ${schema}.scan_attempts (position, course_id, round_id, member_id, scanner_id, outcome, reason,
           server_time, device_id, method, device_time, late_uploaded)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (position) DO NOTHING`,
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
        ],
      );
    switch (event.type) {
      case 'AttendanceScanned': {
        const e = event.data;
        await sql.query(
          `INSERT INTO ${schema}.attendance (round_id, member_id, course_id, scanned_at, scanner_id, method, late, walk_in)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
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
}

/**
 * The round's and the course's counts, from the attendance that stands (not voided, round not
 * cancelled); once per batch for each round a batch touched.
 */
async function recountRound(sql: Sql, schema: string, courseId: string, roundId: string) {
  await sql.query(
    `UPDATE ${schema}.rounds SET attended = (
       SELECT count(*) FROM ${schema}.attendance WHERE round_id = $1 AND voided_at IS NULL) WHERE id = $1`,
    [roundId],
  );
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
