import type { Sql } from '@portal/platform/store/sql';

/** A member's attendance history: each round they were scanned in, newest first, voided ones marked. */
export async function attendanceHistory(sql: Sql, memberId: string) {
  const rows = await sql.query<{
    course_id: string;
    topic: string | null;
    round_id: string;
    starts_at: Date | null;
    scanned_at: Date;
    late: boolean;
    walk_in: boolean;
    voided_at: Date | null;
  }>(
    `SELECT a.course_id, c.topic, a.round_id, r.starts_at, a.scanned_at, a.late, a.walk_in, a.voided_at
       FROM rm.attendance a
       LEFT JOIN rm.courses c ON c.id = a.course_id
       LEFT JOIN rm.rounds r ON r.id = a.round_id
      WHERE a.member_id = $1
      ORDER BY a.scanned_at DESC`,
    [memberId],
  );
  return rows.map((row) => ({
    courseId: row.course_id,
    courseTopic: row.topic,
    roundId: row.round_id,
    roundStartTime: row.starts_at ? new Date(row.starts_at).toISOString() : null,
    scannedAt: new Date(row.scanned_at).toISOString(),
    late: row.late,
    walkIn: row.walk_in,
    voided: row.voided_at !== null,
  }));
}
