import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { Sql } from '@portal/platform/store/sql';
import { createTable, insertRow, updateRows } from '@portal/platform/read-models/table';
import { attendance, attendanceClosed, attendanceTables, scanAttempts } from '@portal/read-models/attendance';
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
    for (const table of attendanceTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, _personal, batch) {
    const recount = (courseId: string, roundId: string) => {
      batch.after(`attendance:${schema}:round:${roundId}`, () => recountRound(sql, schema, roundId));
      batch.after(`attendance:${schema}:course:${courseId}`, () => recountCourse(sql, schema, courseId));
    };
    const close = (scope: 'course' | 'round', id: string) =>
      sql.query(...insertRow(schema, attendanceClosed, { scope, id }, 'ON CONFLICT DO NOTHING'));
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
        ...insertRow(
          schema,
          scanAttempts,
          {
            position: stored.position,
            course_id: courseId,
            round_id: roundId,
            member_id: row.memberId,
            scanner_id: row.scannerId,
            outcome: row.outcome,
            reason: row.reason,
            server_time: row.serverTime,
            device_id: row.deviceId ?? null,
            method: row.method ?? null,
            device_time: row.deviceTime ?? null,
            late_uploaded: row.lateUploaded ?? false,
            offline_decision: row.offlineDecision ?? null,
          },
          'ON CONFLICT (position) DO NOTHING',
        ),
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
        await sql.query(
          ...updateRows(schema, attendance, { voided_at: e.voidedAt }, { round_id: e.roundId, member_id: e.memberId }),
        );
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
