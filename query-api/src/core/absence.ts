/**
 * Absence depends on the clock, so it is computed when asked (shared/DESIGN.md, count
 * semantics): once a round has ended, the members enrolled in its course who were not scanned in
 * it (a voided scan is no scan); a course's total is the sum over its ended rounds.
 */
export const roundAbsentSql = (round: string) =>
  `CASE WHEN ${round}.ends_at < now() THEN (
     SELECT count(*) FROM rm.enrolments e
      WHERE e.course_id = ${round}.course_id
        AND NOT EXISTS (SELECT 1 FROM rm.attendance a
                         WHERE a.round_id = ${round}.id AND a.member_id = e.member_id AND a.voided_at IS NULL)
   ) ELSE 0 END`;

export const courseAbsentSql = (course: string) =>
  `(SELECT coalesce(sum(${roundAbsentSql('ended')}), 0) FROM rm.rounds ended WHERE ended.course_id = ${course}.id)`;
