import type { Role } from '@portal/contracts/accounts/account.events';
import type { Sql } from '@portal/platform/store/sql';
import { roundsAhead } from './partner-home.ts';

/** Whether `accountId` is a scan-only assistant of the course (issue 18). */
export async function isAssistant(sql: Sql, courseId: string, accountId: string): Promise<boolean> {
  const rows = await sql.query(`SELECT 1 FROM rm.course_assistants WHERE course_id = $1 AND assistant_id = $2`, [
    courseId,
    accountId,
  ]);
  return rows.length > 0;
}

/** Who may open a course's rounds and scan: admins, its creator, its assistants. */
export async function mayScanIn(
  sql: Sql,
  course: { id: string; creator: string },
  session: { accountId: string; role: Role },
): Promise<boolean> {
  if (session.role === 'admin' || session.accountId === course.creator) return true;
  return isAssistant(sql, course.id, session.accountId);
}

/** A course's assistants, with the names the accounts read model holds (blank once erased). */
export async function courseAssistants(sql: Sql, courseId: string) {
  const rows = await sql.query<{
    assistant_id: string;
    full_name: string | null;
    username: string | null;
    role: string | null;
    added_at: Date;
  }>(
    `SELECT a.assistant_id, nullif(acc.full_name, '') AS full_name, acc.username, acc.role, a.added_at
       FROM rm.course_assistants a LEFT JOIN rm.accounts acc ON acc.id = a.assistant_id
      WHERE a.course_id = $1
      ORDER BY a.added_at, a.assistant_id`,
    [courseId],
  );
  return rows.map((row) => ({
    _id: row.assistant_id,
    fullName: row.full_name,
    username: row.username,
    role: row.role,
    addedAt: new Date(row.added_at).toISOString(),
  }));
}

/** The rounds, open now or within the week, of the courses `assistantId` assists in. */
export const assistedRounds = (sql: Sql, assistantId: string, now: Date) =>
  roundsAhead(sql, 'c.id IN (SELECT course_id FROM rm.course_assistants WHERE assistant_id = $1)', assistantId, now);
