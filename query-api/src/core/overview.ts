import type { Sql } from '@portal/platform/store/sql';
import type { Overview, OverviewQuery } from '@portal/contracts/views/reports';
import { roundAbsentSql } from './absence.ts';

type Count = string | number;
const iso = (value: Date) => new Date(value).toISOString();

/**
 * The organisation at a glance for admins (/admin): members by role and status, scan attempts per
 * day in the admin's time zone, the attendance rate of the courses whose rounds ended in the
 * period, and the period's busiest rounds. Every figure comes from the read models.
 */
export async function overview(sql: Sql, { days, tz }: OverviewQuery): Promise<Omit<Overview, 'success' | 'message'>> {
  // The period: from midnight `days - 1` days ago, in the admin's zone, until now.
  const [bounds] = await sql.query<{ from: Date; to: Date }>(
    `SELECT (date_trunc('day', now() AT TIME ZONE $1) - ($2::int - 1) * interval '1 day') AT TIME ZONE $1 AS "from",
            now() AS "to"`,
    [tz, days],
  );
  const from = bounds!.from;
  const members = await sql.query<{ role: string; status: string; count: Count }>(
    `SELECT role, status, count(*) AS count FROM rm.accounts GROUP BY role, status ORDER BY role, status`,
  );
  const [courses] = await sql.query<{ public: Count; private: Count; rounds: Count }>(
    `SELECT count(*) FILTER (WHERE status = 'public') AS public,
            count(*) FILTER (WHERE status = 'private') AS private,
            (SELECT count(*) FROM rm.rounds WHERE starts_at >= $1 AND starts_at <= now()) AS rounds
       FROM rm.courses`,
    [from],
  );
  const scansPerDay = await sql.query<{ day: string; accepted: Count; refused: Count; voided: Count }>(
    `WITH days AS (
       SELECT generate_series(($2::timestamptz AT TIME ZONE $1), date_trunc('day', now() AT TIME ZONE $1),
                              interval '1 day') AS day),
     attempts AS (
       SELECT date_trunc('day', server_time AT TIME ZONE $1) AS day, outcome
         FROM rm.scan_attempts WHERE server_time >= $2)
     SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
            count(a.outcome) FILTER (WHERE a.outcome = 'accepted') AS accepted,
            count(a.outcome) FILTER (WHERE a.outcome = 'refused') AS refused,
            count(a.outcome) FILTER (WHERE a.outcome = 'voided') AS voided
       FROM days LEFT JOIN attempts a ON a.day = days.day
      GROUP BY days.day ORDER BY days.day`,
    [tz, from],
  );
  const courseRates = await sql.query<{ id: string; topic: string; attended: Count; absent: Count }>(
    `SELECT c.id, c.topic, sum(r.attended) AS attended, sum(r.absent) AS absent
       FROM (SELECT r.course_id, r.attended, ${roundAbsentSql('r')} AS absent
               FROM rm.rounds r WHERE r.ends_at >= $1 AND r.ends_at < now()) r
       JOIN rm.courses c ON c.id = r.course_id
      GROUP BY c.id, c.topic
     HAVING sum(r.attended) + sum(r.absent) > 0
      ORDER BY sum(r.attended) + sum(r.absent) DESC, c.topic, c.id
      LIMIT 10`,
    [from],
  );
  const busiest = await sql.query<{ id: string; course_id: string; topic: string; starts_at: Date; attended: Count }>(
    `SELECT r.id, r.course_id, c.topic, r.starts_at, r.attended
       FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
      WHERE r.starts_at >= $1 AND r.starts_at <= now() AND r.attended > 0
      ORDER BY r.attended DESC, r.starts_at DESC, r.id
      LIMIT 5`,
    [from],
  );
  return {
    from: iso(from),
    to: iso(bounds!.to),
    days,
    members: members.map((row) => ({ role: row.role, status: row.status, count: Number(row.count) })),
    courses: { public: Number(courses!.public), private: Number(courses!.private), rounds: Number(courses!.rounds) },
    scansPerDay: scansPerDay.map((row) => ({
      day: row.day,
      accepted: Number(row.accepted),
      refused: Number(row.refused),
      voided: Number(row.voided),
    })),
    courseRates: courseRates.map((row) => {
      const attended = Number(row.attended);
      const absent = Number(row.absent);
      return {
        _id: row.id,
        courseTopic: row.topic,
        attended,
        absent,
        rate: Math.round((100 * attended) / (attended + absent)),
      };
    }),
    busiestRounds: busiest.map((row) => ({
      _id: row.id,
      courseId: row.course_id,
      courseTopic: row.topic,
      roundStartTime: iso(row.starts_at),
      attended: Number(row.attended),
    })),
  };
}
