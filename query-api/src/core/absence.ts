/**
 * The one count rule (shared/DESIGN.md, count semantics). A member is *expected* in a round when
 * they were enrolled at its start: one of their enrolment periods covers that moment. Once the
 * round has ended, each expected member without an accepted (not voided) scan in it is *absent*.
 * A walk-in, or someone who enrolled during the round, was not expected: scanned, they count as
 * present, never absent. Leaving later does not change a past round (the period keeps its end).
 * A course's total is the sum over its ended rounds. Absence depends on the clock, so it is
 * computed when asked.
 */
export const expectedSql = (round: string, member: string) =>
  `EXISTS (SELECT 1 FROM rm.enrolment_periods p
            WHERE p.course_id = ${round}.course_id AND p.member_id = ${member}
              AND p.enrolled_at <= ${round}.starts_at AND (p.left_at IS NULL OR p.left_at > ${round}.starts_at))`;

export const roundAbsentSql = (round: string) =>
  `CASE WHEN ${round}.ends_at < now() THEN (
     SELECT count(*) FROM rm.enrolment_periods p
      WHERE p.course_id = ${round}.course_id
        AND p.enrolled_at <= ${round}.starts_at AND (p.left_at IS NULL OR p.left_at > ${round}.starts_at)
        AND NOT EXISTS (SELECT 1 FROM rm.attendance a
                         WHERE a.round_id = ${round}.id AND a.member_id = p.member_id AND a.voided_at IS NULL)
   ) ELSE 0 END`;

export const courseAbsentSql = (course: string) =>
  `(SELECT coalesce(sum(${roundAbsentSql('ended')}), 0) FROM rm.rounds ended WHERE ended.course_id = ${course}.id)`;
