import type { Sql } from '@portal/platform/store/sql';
import type { CourseRow, RoundRow as Round } from '@portal/read-models/courses';
import type { PartnerRound } from '@portal/contracts/views/partner-home';
import { roundAbsentSql } from './absence.ts';
import { coursesCreatedBy } from './courses-table.ts';

const WEEK_MS = 7 * 24 * 3600_000;
const ROUNDS_SHOWN = 8;
const COURSES_SHOWN = 50;

type RoundRow = Pick<Round, 'id' | 'course_id' | 'starts_at' | 'ends_at' | 'attended'> &
  Pick<CourseRow, 'topic' | 'enrolled'> & { round_number: string | number };

/**
 * What a partner sees first (/partner), from the read models: the courses they created, the rounds
 * of those courses open now or within the week (numbered in their course, as everywhere), and the
 * attendance rate over the rounds that have ended, with absence counted as the reports count it.
 */
export async function partnerHome(sql: Sql, creator: string, now: Date) {
  const weekAhead = new Date(now.getTime() + WEEK_MS).toISOString();
  const [figures] = await sql.query<{ courses: number; members: number; upcoming: number }>(
    `SELECT (SELECT count(*)::int FROM rm.courses WHERE creator = $1) AS courses,
            (SELECT count(DISTINCT e.member_id)::int FROM rm.enrolments e
               JOIN rm.courses c ON c.id = e.course_id WHERE c.creator = $1) AS members,
            (SELECT count(*)::int FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
              WHERE c.creator = $1 AND r.ends_at >= $2 AND r.starts_at < $3) AS upcoming`,
    [creator, now.toISOString(), weekAhead],
  );
  const [held] = await sql.query<{ attended: string | null; absent: string | null }>(
    `SELECT sum(r.attended)::text AS attended, sum(${roundAbsentSql('r')})::text AS absent
       FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
      WHERE c.creator = $1 AND r.ends_at < $2`,
    [creator, now.toISOString()],
  );
  const attended = Number(held?.attended ?? 0);
  const expected = attended + Number(held?.absent ?? 0);
  const rounds = await roundsAhead(sql, 'c.creator = $1', creator, now);
  return {
    summary: {
      courses: figures?.courses ?? 0,
      members: figures?.members ?? 0,
      upcomingRounds: figures?.upcoming ?? 0,
      attendanceRate: expected === 0 ? null : Math.round((100 * attended) / expected),
    },
    rounds,
    courses: await coursesCreatedBy(sql, creator, COURSES_SHOWN),
  };
}

/**
 * The rounds open now or starting within the week of the courses `courseFilter` selects (with
 * `accountId` as $1), numbered in their course, soonest first: a partner's own, or those an
 * assistant may scan in.
 */
export async function roundsAhead(
  sql: Sql,
  courseFilter: string,
  accountId: string,
  now: Date,
): Promise<PartnerRound[]> {
  const weekAhead = new Date(now.getTime() + WEEK_MS).toISOString();
  const rows = await sql.query<RoundRow>(
    `SELECT * FROM (
       SELECT r.id, r.course_id, c.topic, r.starts_at, r.ends_at, r.attended, c.enrolled,
              row_number() OVER (PARTITION BY r.course_id ORDER BY r.starts_at, r.id) AS round_number
         FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
        WHERE ${courseFilter}) numbered
      WHERE ends_at >= $2 AND starts_at < $3
      ORDER BY starts_at, id
      LIMIT ${ROUNDS_SHOWN}`,
    [accountId, now.toISOString(), weekAhead],
  );
  return rows.map((row) => ({
    _id: row.id,
    courseId: row.course_id,
    courseTopic: row.topic,
    roundNumber: Number(row.round_number),
    roundStartTime: new Date(row.starts_at).toISOString(),
    roundEndTime: new Date(row.ends_at).toISOString(),
    active: new Date(row.starts_at) <= now && now <= new Date(row.ends_at),
    attended: Number(row.attended),
    enrolled: Number(row.enrolled),
  }));
}
