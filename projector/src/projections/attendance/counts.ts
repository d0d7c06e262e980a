import { listParameter } from '@portal/platform/store/list-parameter';
import type { Sql } from '@portal/platform/store/sql';
import type { StoredRowOf } from '@portal/platform/read-models/table';
import { courseMembers } from '@portal/read-models/attendance';

/**
 * The counts the attendance projection keeps (shared/DESIGN.md, count semantics), from the
 * attendance that stands (not voided, in a round the courses read model has): a round's
 * attended, each member's scans in a course (course_members), and a course's participate
 * (members with any) and totalAttend (their sum).
 *
 * A round's count and a member's are counted from the stored rows, which gives the same result
 * whichever stream's events came first. A course's counts move by its touched members' changes,
 * so a batch costs the same in a course of thirty rounds as in a course of one. That is exact
 * because every change to a course's standing rows names the members it touched (a scan, a void,
 * a cancelled round's deleted rows, a scheduled round's waiting rows, rows dropped as closed),
 * and a course's batches never run side by side (the projector's checkpoint lock, or the
 * course's lock for Kafka partitions and replays: projector/src/apply.ts; a rebuild counts
 * everything at its end, recountAll). A scan counts only in a round the courses read model has,
 * and a round comes after its course in the course's stream, so a course's row is there before
 * any of its scans counts. Not healed: a round the courses read model gains only after this
 * projection applied its scheduling (the courses projection set aside by a fault, then retried)
 * counts in its members' scans when they are touched again; a rebuild counts it at once.
 */

/** A member of a course whose standing scans may have changed. */
export type Member = Pick<StoredRowOf<typeof courseMembers>, 'course_id' | 'member_id'>;

/** What a batch touched, to recount at its end. */
export interface Touched {
  rounds: Set<string>;
  /** Each course's members whose scans may have changed, by course. */
  members: Map<string, Set<string>>;
  /** Rounds scheduled: rows that came before them count now. */
  scheduled: Set<string>;
}

export function addMember(members: Touched['members'], { course_id, member_id }: Member) {
  const ofCourse = members.get(course_id);
  if (ofCourse) ofCourse.add(member_id);
  else members.set(course_id, new Set([member_id]));
}

/** Recounts what the batch touched (Touched), and empties it. */
export async function recount(sql: Sql, schema: string, touched: Touched) {
  const rounds = [...touched.rounds];
  const scheduled = [...touched.scheduled];
  const members = new Map(touched.members);
  touched.rounds.clear();
  touched.scheduled.clear();
  touched.members.clear();
  if (rounds.length === 0 && members.size === 0) return;
  for (const member of await dropClosed(sql, schema, rounds, [...members.keys()])) addMember(members, member);
  if (scheduled.length > 0) {
    const waiting = await sql.query<Member>(
      `SELECT course_id, member_id FROM ${schema}.attendance WHERE round_id = ANY($1::text[])`,
      [scheduled],
    );
    for (const member of waiting) addMember(members, member);
  }
  const pairs = [...members].flatMap(([course, ids]) => [...ids].map((member) => [course, member] as const));
  // One statement for the batch (each part sees the rows as the statement began: after
  // dropClosed, as the counts need). The ids go as values, so that the embedded database keeps
  // one plan of it (list-parameter.ts); padding's NULLs touch nothing. A member's count before
  // is looked up by its key, not joined: the generic plan, made when course_members was small,
  // hashed the whole table on every batch.
  const roundIds = listParameter(rounds, 1);
  const courseIds = listParameter(
    pairs.map(([course]) => course),
    1 + roundIds.params.length,
  );
  const memberIds = listParameter(
    pairs.map(([, member]) => member),
    1 + roundIds.params.length + courseIds.params.length,
  );
  const table = `${schema}.${courseMembers.storedAs}`;
  await sql.query(
    `WITH rounds_counted AS (
       UPDATE ${schema}.rounds r SET attended = (
         SELECT count(*) FROM ${schema}.attendance a WHERE a.round_id = r.id AND a.voided_at IS NULL)
        WHERE r.id = ANY(${roundIds.sql})),
     counted AS (
       SELECT t.course_id, t.member_id, coalesce((
           SELECT m.scans FROM ${table} m WHERE m.course_id = t.course_id AND m.member_id = t.member_id), 0) AS before, (
           SELECT count(*) FROM ${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id
            WHERE a.member_id = t.member_id AND a.course_id = t.course_id AND a.voided_at IS NULL)::int AS scans
         FROM unnest(${courseIds.sql}, ${memberIds.sql}) AS t(course_id, member_id)
        WHERE t.course_id IS NOT NULL),
     kept AS (
       INSERT INTO ${table} (course_id, member_id, scans)
       SELECT course_id, member_id, scans FROM counted WHERE scans > 0 AND scans <> before ORDER BY course_id, member_id
       ON CONFLICT (course_id, member_id) DO UPDATE SET scans = EXCLUDED.scans),
     gone AS (
       DELETE FROM ${table} m USING counted c
        WHERE c.scans = 0 AND c.before > 0 AND m.course_id = c.course_id AND m.member_id = c.member_id)
     UPDATE ${schema}.courses c SET participate = c.participate + d.members, total_attend = c.total_attend + d.scans
       FROM (SELECT course_id, sum((scans > 0)::int - (before > 0)::int) AS members, sum(scans - before) AS scans
               FROM counted GROUP BY course_id) d
      WHERE c.id = d.course_id AND (d.members <> 0 OR d.scans <> 0)`,
    [...roundIds.params, ...courseIds.params, ...memberIds.params],
  );
}

/**
 * Every count, as recount gives them, in one statement each: a rebuild's read models start at 0,
 * and those without attendance stay so.
 */
export async function recountAll(sql: Sql, schema: string) {
  for (const column of ['round_id', 'course_id'] as const) {
    await sql.query(
      `DELETE FROM ${schema}.attendance a USING ${schema}.attendance_closed c WHERE c.scope = $1 AND a.${column} = c.id`,
      [column === 'round_id' ? 'round' : 'course'],
    );
  }
  await sql.query(
    `UPDATE ${schema}.rounds r SET attended = counts.n
       FROM (SELECT round_id, count(*) AS n FROM ${schema}.attendance WHERE voided_at IS NULL GROUP BY round_id) counts
      WHERE r.id = counts.round_id`,
  );
  await sql.query(
    `INSERT INTO ${schema}.${courseMembers.storedAs} (course_id, member_id, scans)
     SELECT a.course_id, a.member_id, count(*)
       FROM ${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id
      WHERE a.voided_at IS NULL GROUP BY a.course_id, a.member_id`,
  );
  await sql.query(
    `UPDATE ${schema}.courses c SET participate = counts.members, total_attend = counts.scans
       FROM (SELECT course_id, count(*) AS members, sum(scans) AS scans
               FROM ${schema}.${courseMembers.storedAs} GROUP BY course_id) counts
      WHERE c.id = counts.course_id`,
  );
}

/**
 * Removes attendance of a deleted course or a cancelled round that a scan applied at the same
 * time as the deletion (by another projector, each not seeing the other's rows) left behind;
 * runs under the course's lock, so the later of the two always sees the other's rows. Answers
 * the members whose rows it removed.
 */
async function dropClosed(sql: Sql, schema: string, rounds: string[], courses: string[]) {
  // From the closed ones among the ids (few, by attendance_closed's key) to their rows: a scan of
  // the rounds' rows would check every one of them for nothing. One statement: a row of a closed
  // round in a closed course is deleted once.
  return sql.query<Member>(
    `WITH of_rounds AS (
       DELETE FROM ${schema}.attendance a WHERE a.round_id IN (
         SELECT c.id FROM ${schema}.attendance_closed c WHERE c.scope = 'round' AND c.id = ANY($1::text[]))
       RETURNING a.course_id, a.member_id),
     of_courses AS (
       DELETE FROM ${schema}.attendance a WHERE a.course_id IN (
         SELECT c.id FROM ${schema}.attendance_closed c WHERE c.scope = 'course' AND c.id = ANY($2::text[]))
       RETURNING a.course_id, a.member_id)
     SELECT course_id, member_id FROM of_rounds UNION ALL SELECT course_id, member_id FROM of_courses`,
    [rounds, courses],
  );
}
