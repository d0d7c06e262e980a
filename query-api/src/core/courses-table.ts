import type { Sql } from '@portal/platform/store/sql';
import type { CourseQuery, CourseView } from '../contracts/course.ts';
import { courseAbsentSql, roundAbsentSql } from './absence.ts';
import { containsPattern } from './paging.ts';

interface CourseRow {
  id: string;
  topic: string;
  description: string;
  image_url: string | null;
  status: 'public' | 'private';
  max_people: number;
  creator: string;
  enrolled: number;
  participate: number;
  total_attend: number;
  created_at: Date;
  round_ids: string[] | null;
  absent_now: string | number;
}

const toView = (row: CourseRow): CourseView => ({
  _id: row.id,
  courseTopic: row.topic,
  courseDescription: row.description,
  courseImage: row.image_url,
  status: row.status,
  maxPeople: Number(row.max_people),
  creator: row.creator,
  rounds: row.round_ids ?? [],
  enrolled: Number(row.enrolled),
  participate: Number(row.participate),
  totalAttend: Number(row.total_attend),
  totalAbsent: Number(row.absent_now),
  createdAt: new Date(row.created_at).toISOString(),
});

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
  const rows = await sql.query<CourseRow>(
    `${select} WHERE ${where} ORDER BY ${sortColumns[query.sort]} ${direction}, c.id ${direction}${page}`,
    params,
  );
  return { courses: rows.map(toView), total: Number(counted!.total) };
}

/** The courses one person created, newest first (the partner's home). */
export async function coursesCreatedBy(sql: Sql, creator: string, limit: number): Promise<CourseView[]> {
  const rows = await sql.query<CourseRow>(
    `${select} WHERE c.creator = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT ${Number(limit)}`,
    [creator],
  );
  return rows.map(toView);
}

/**
 * One course with its rounds numbered in time order; a round is active while the server's clock
 * (`now`, the same clock the command side uses) is within it, both ends included.
 */
export async function findCourse(sql: Sql, id: string, now: Date) {
  const [row] = await sql.query<CourseRow>(`${select} WHERE c.id = $1`, [id]);
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
    ...toView(row),
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
