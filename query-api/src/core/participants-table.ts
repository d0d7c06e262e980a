import type { Sql } from '@portal/platform/store/sql';
import type { Participant } from '@portal/contracts/views/course';

/**
 * The distinct members scanned in any of the course's rounds (spec 001 section 4, participants
 * modal), with what the accounts read model knows of them; null when the course does not exist.
 */
export async function courseParticipants(sql: Sql, courseId: string): Promise<Participant[] | null> {
  const [course] = await sql.query(`SELECT 1 FROM rm.courses WHERE id = $1`, [courseId]);
  if (!course) return null;
  const rows = await sql.query<{
    member_id: string;
    full_name: string | null;
    username: string | null;
    personal_email: string | null;
    profile_img: string | null;
  }>(
    `SELECT DISTINCT a.member_id, acc.full_name, acc.username, acc.personal_email, acc.profile_img
       FROM rm.attendance a
       JOIN rm.rounds r ON r.id = a.round_id
       LEFT JOIN rm.accounts acc ON acc.id = a.member_id
      WHERE a.course_id = $1 AND a.voided_at IS NULL
      ORDER BY acc.full_name, a.member_id`,
    [courseId],
  );
  return rows.map((row) => ({
    _id: row.member_id,
    fullName: row.full_name || null,
    username: row.username || null,
    email: row.personal_email || null,
    avatarUrl: row.profile_img || null,
  }));
}
