import type { Sql } from '@portal/platform/store/sql';
import type { CourseQuery, CourseView } from '@portal/contracts/views/course';
import { type CourseWithRounds, toCourseView } from '@portal/read-models/courses';
import { courseAbsentSql, roundAbsentSql } from './absence.ts';
import { containsPattern } from './paging.ts';

const sortColumns: Record<CourseQuery['sort'], string> = {
  createdAt: 'created_at',
  topic: 'lower(topic)',
  participants: 'participate',
  totalAttend: 'total_attend',
  // Computed when asked (absence depends on the clock): the select's output column.
  totalAbsent: 'absent_now',
};

// The round ids of each course, in time order, as the spec's `rounds` list.
const select = `SELECT c.*, (SELECT array_agg(r.id ORDER BY r.starts_at) FROM rm.rounds r WHERE r.course_id = c.id) AS round_ids,
    ${courseAbsentSql('c')} AS absent_now
  FROM rm.courses c`;

/** The course list: search over topic and description (any case), sorted and paged in the database. */
export async function searchCourses(
  sql: Sql,
  query: CourseQuery,
  limit: { page: number; pageSize: number } | null,
): Promise<{ courses: CourseView[]; total: number }> {
  const params: unknown[] = [];
  let where = 'TRUE';
  if (query.search) {
    params.push(containsPattern(query.search));
    where = `c.search_text LIKE $1`;
  }
  const [counted] = await sql.query<{ total: string }>(
    `SELECT count(*)::text AS total FROM rm.courses c WHERE ${where}`,
    params,
  );
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const page = limit ? ` LIMIT ${limit.pageSize} OFFSET ${(limit.page - 1) * limit.pageSize}` : '';
  const rows = await sql.query<CourseWithRounds>(
    `${select} WHERE ${where} ORDER BY ${sortColumns[query.sort]} ${direction}, c.id ${direction}${page}`,
    params,
  );
  return { courses: rows.map(toCourseView), total: Number(counted!.total) };
}

/** The courses one person created, newest first (the partner's home). */
export async function coursesCreatedBy(sql: Sql, creator: string, limit: number): Promise<CourseView[]> {
  const rows = await sql.query<CourseWithRounds>(
    `${select} WHERE c.creator = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT ${Number(limit)}`,
    [creator],
  );
  return rows.map(toCourseView);
}

/**
 * One course with its rounds numbered in time order; a round is active while the server's clock
 * (`now`, the same clock the command side uses) is within it, both ends included.
 */
export async function findCourse(sql: Sql, id: string, now: Date) {
  const [row] = await sql.query<CourseWithRounds>(`${select} WHERE c.id = $1`, [id]);
  if (!row) return null;
  const rounds = await sql.query<{
    id: string;
    starts_at: Date;
    ends_at: Date;
    attended: number;
    absent: number;
  }>(
    `SELECT r.id, r.starts_at, r.ends_at, r.attended, ${roundAbsentSql('r')} AS absent
       FROM rm.rounds r WHERE r.course_id = $1 ORDER BY r.starts_at`,
    [id],
  );
  return {
    ...toCourseView(row),
    rounds: rounds.map((round, index) => ({
      _id: round.id,
      roundNumber: index + 1,
      roundStartTime: new Date(round.starts_at).toISOString(),
      roundEndTime: new Date(round.ends_at).toISOString(),
      active: new Date(round.starts_at) <= now && now <= new Date(round.ends_at),
      attended: Number(round.attended),
      absent: Number(round.absent),
    })),
  };
}
