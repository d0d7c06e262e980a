import type { Sql } from '@portal/platform/store/sql';
import type { CourseRow } from '@portal/read-models/courses';
import type { CatalogueCourse, CatalogueQuery } from '@portal/contracts/views/catalogue';
import { containsPattern } from './paging.ts';

type CatalogueRow = Pick<
  CourseRow,
  'id' | 'topic' | 'description' | 'image_url' | 'status' | 'max_people' | 'enrolled' | 'created_at'
> & {
  mine: boolean;
  round_count: string;
  next_start: Date | null;
  next_end: Date | null;
};

const toView = (row: CatalogueRow): CatalogueCourse => {
  const maxPeople = Number(row.max_people);
  const enrolled = Number(row.enrolled);
  return {
    _id: row.id,
    courseTopic: row.topic,
    courseDescription: row.description,
    courseImage: row.image_url,
    status: row.status,
    maxPeople,
    enrolled,
    seatsLeft: maxPeople === 0 ? null : Math.max(0, maxPeople - enrolled),
    roundCount: Number(row.round_count),
    nextRound:
      row.next_start && row.next_end
        ? { roundStartTime: new Date(row.next_start).toISOString(), roundEndTime: new Date(row.next_end).toISOString() }
        : null,
    enrolledByMe: row.mine,
    createdAt: new Date(row.created_at).toISOString(),
  };
};

/** Whether the member is enrolled in course `c`; adds the member's id to `params`. */
function enrolledIn(params: unknown[], memberId: string): string {
  params.push(memberId);
  return `EXISTS (SELECT 1 FROM rm.enrolments e WHERE e.course_id = c.id AND e.member_id = $${params.length})`;
}

/**
 * The members' catalogue: public courses (or, with `mine`, the courses the member is enrolled in,
 * whatever their status), newest first, searched over topic and description, paged in the database.
 */
export async function searchCatalogue(
  sql: Sql,
  memberId: string,
  query: CatalogueQuery,
): Promise<{ courses: CatalogueCourse[]; total: number }> {
  const filter = (params: unknown[]) => {
    const conditions = [query.mine ? enrolledIn(params, memberId) : `c.status = 'public'`];
    if (query.search) {
      params.push(containsPattern(query.search));
      conditions.push(`c.search_text LIKE $${params.length}`);
    }
    return conditions.join(' AND ');
  };
  const countParams: unknown[] = [];
  const [counted] = await sql.query<{ total: string }>(
    `SELECT count(*)::text AS total FROM rm.courses c WHERE ${filter(countParams)}`,
    countParams,
  );
  const params: unknown[] = [];
  const mine = enrolledIn(params, memberId);
  const where = filter(params);
  const offset = (query.page - 1) * query.pageSize;
  const rows = await sql.query<CatalogueRow>(
    `SELECT c.id, c.topic, c.description, c.image_url, c.status, c.max_people, c.enrolled, c.created_at,
            ${mine} AS mine,
            (SELECT count(*) FROM rm.rounds r WHERE r.course_id = c.id)::text AS round_count,
            next.starts_at AS next_start, next.ends_at AS next_end
       FROM rm.courses c
       LEFT JOIN LATERAL (
         SELECT starts_at, ends_at FROM rm.rounds r WHERE r.course_id = c.id AND r.ends_at >= now()
          ORDER BY r.starts_at LIMIT 1
       ) next ON TRUE
      WHERE ${where}
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT ${query.pageSize} OFFSET ${offset}`,
    params,
  );
  return { courses: rows.map(toView), total: Number(counted!.total) };
}
