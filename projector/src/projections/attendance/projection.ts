import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import { listParameter } from '@portal/platform/store/list-parameter';
import type { Sql } from '@portal/platform/store/sql';
import { type StoredRowOf, copyRows, createTable, insertRow, insertRows } from '@portal/platform/read-models/table';
import {
  attendance,
  attendanceClosed,
  attendanceTables,
  scanAttemptCounts,
  scanAttempts,
} from '@portal/read-models/attendance';
import { type Batch, type Projection, readsOf } from '../../projection.ts';

/**
 * Attendance: who counts as present in each round (`attendance`, voided scans kept but marked),
 * every attempt for the audit (`scan_attempts`: accepted, refused with the reason, voided), and
 * the counts the course list and details show (shared/DESIGN.md, count semantics): a round's
 * attended, a course's participate (distinct members) and totalAttend (accepted scans).
 * Absence depends on the clock (a round must have ended), so the query API computes it.
 */
const READS = readsOf(decodeCourseEvent, decodeAttendanceEvent);

export const attendanceProjection: Projection = {
  name: 'attendance',
  reads: READS,
  // Attendance keeps the course and round rows' counts.
  rebuiltWith: ['courses'],
  // Every row it writes is one course's (its count, its rounds', its members').
  byCourse: true,
  version: 4,
  async createTables(sql, schema) {
    for (const table of attendanceTables) await createTable(sql, schema, table);
  },
  async afterRebuild(sql, schema) {
    await recountAll(sql, schema);
    await countAttempts(sql, schema);
  },
  async apply(sql, schema, stored, _personal, batch) {
    if (!READS.has(stored.type)) return;
    const pending = pendingFor(batch, sql, schema);
    const course = decodeCourseEvent(stored);
    switch (course?.type) {
      case 'CourseDeleted':
        await writePending(sql, schema, pending);
        await close(sql, schema, 'course', courseIdOf(course.streamId));
        await sql.query(`DELETE FROM ${schema}.attendance WHERE course_id = $1`, [courseIdOf(course.streamId)]);
        return;
      case 'RoundCancelled':
        await writePending(sql, schema, pending);
        await close(sql, schema, 'round', course.data.roundId);
        await sql.query(`DELETE FROM ${schema}.attendance WHERE round_id = $1`, [course.data.roundId]);
        pending.recount(courseIdOf(course.streamId), course.data.roundId);
        return;
      // Scans may have arrived before the course or the round did (from another partition).
      case 'CourseCreated':
        pending.courses.add(courseIdOf(course.streamId));
        return;
      case 'RoundScheduled':
        pending.recount(courseIdOf(course.streamId), course.data.roundId);
        return;
      default:
        if (course) return;
    }
    const event = decodeAttendanceEvent(stored);
    if (!event) return;
    switch (event.type) {
      case 'AttendanceScanned': {
        const e = event.data;
        // A later scan of the same member in the same round replaces an earlier one of this batch.
        const key = `${e.roundId}\u0000${e.memberId}`;
        pending.voids.delete(key);
        pending.present.set(key, {
          round_id: e.roundId,
          member_id: e.memberId,
          course_id: e.courseId,
          scanned_at: e.scannedAt,
          scanner_id: e.scannerId,
          method: e.method,
          late: e.late,
          walk_in: e.walkIn,
          voided_at: null,
        });
        pending.attempts.push(attemptRow(stored.position, 'accepted', null, e));
        pending.recount(e.courseId, e.roundId);
        return;
      }
      case 'ScanRefused': {
        const e = event.data;
        pending.attempts.push(attemptRow(stored.position, 'refused', e.reason, e));
        return;
      }
      case 'AttendanceVoided': {
        const e = event.data;
        // A scan of this batch is voided before it is written; one written before, after the batch's scans.
        const key = `${e.roundId}\u0000${e.memberId}`;
        const scanned = pending.present.get(key);
        if (scanned) scanned.voided_at = e.voidedAt;
        else pending.voids.set(key, { round_id: e.roundId, member_id: e.memberId, voided_at: e.voidedAt });
        pending.attempts.push(
          attemptRow(stored.position, 'voided', e.reason, {
            courseId: e.courseId,
            roundId: e.roundId,
            memberId: e.memberId,
            scannerId: e.voidedBy,
            serverTime: e.voidedAt,
          }),
        );
        pending.recount(e.courseId, e.roundId);
        return;
      }
      default: {
        const _exhaustive: never = event;
      }
    }
  },
};

/**
 * What a batch has still to write: scans and voids are gathered and written together (one
 * statement for the attendance and the attempts, one for the voids of rows written before),
 * before a cancellation or a deletion and at the batch's end; the rounds and courses touched are
 * recounted once, at the end, one statement each. Same rows as one event at a time
 * (projector/test/batch-boundaries.spec.ts).
 */
interface Pending {
  present: Map<string, StoredRowOf<typeof attendance>>;
  voids: Map<string, Pick<StoredRowOf<typeof attendance>, 'round_id' | 'member_id' | 'voided_at'>>;
  attempts: StoredRowOf<typeof scanAttempts>[];
  rounds: Set<string>;
  courses: Set<string>;
  recount(courseId: string, roundId: string): void;
  /** Filling a rebuild's fresh tables (Batch.rebuilding). */
  rebuilding: boolean;
}

const pendingOfBatch = new WeakMap<Batch, Pending>();

function pendingFor(batch: Batch, sql: Sql, schema: string): Pending {
  let pending = pendingOfBatch.get(batch);
  if (pending) return pending;
  const created: Pending = {
    present: new Map(),
    voids: new Map(),
    attempts: [],
    rounds: new Set(),
    courses: new Set(),
    recount(courseId, roundId) {
      this.courses.add(courseId);
      this.rounds.add(roundId);
    },
    rebuilding: batch.rebuilding,
  };
  pendingOfBatch.set(batch, created);
  batch.after(`attendance:${schema}`, async () => {
    await writePending(sql, schema, created);
    // A rebuild counts once, for the whole log (afterRebuild): the courses read model being
    // rebuilt beside this one may not have reached these rounds yet.
    if (!batch.rebuilding) await recount(sql, schema, created);
  });
  pending = created;
  return pending;
}

async function writePending(sql: Sql, schema: string, pending: Pending) {
  const present = pending.present.size > 0 ? presentInsert(schema, [...pending.present.values()]) : null;
  pending.present.clear();
  const attempts = pending.attempts.splice(0);
  if (pending.rebuilding) {
    // A rebuild's attempts go into the fresh table by COPY, each once (every event is applied
    // once, in one lane), and are counted once, at the end (countAttempts).
    if (present) await sql.query(...present);
    await copyRows(sql, schema, scanAttempts, attempts);
  } else if (attempts.length > 0) {
    // The batch's scans and its attempts in one statement (one round trip), each as a WITH; the
    // counts move with the attempts actually inserted, in key order (two writers never wait on
    // each other in a circle). A present row is only ever queued with its attempt (a scan queues
    // both), so there is no batch with present rows and no attempts.
    const [insert, values] = insertRows(
      schema,
      scanAttempts,
      attempts,
      'ON CONFLICT (position) DO NOTHING RETURNING course_id, round_id, outcome',
      present?.[1].length ?? 0,
    );
    await sql.query(
      `WITH ${present ? `present AS (${present[0]}), ` : ''}inserted AS (${insert})
       INSERT INTO ${schema}.${scanAttemptCounts.storedAs} AS c (course_id, round_id, outcome, n)
       SELECT course_id, round_id, outcome, count(*) FROM inserted
        GROUP BY course_id, round_id, outcome ORDER BY course_id, round_id, outcome
       ON CONFLICT (course_id, round_id, outcome) DO UPDATE SET n = c.n + EXCLUDED.n`,
      [...(present?.[1] ?? []), ...values],
    );
  }
  // Voids of rows written before the batch's scans (a scan of this batch is voided before it is written).
  if (pending.voids.size > 0) {
    const voids = [...pending.voids.values()];
    pending.voids.clear();
    await sql.query(
      `UPDATE ${schema}.attendance a SET voided_at = v.voided_at
         FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS v(round_id, member_id, voided_at)
        WHERE a.round_id = v.round_id AND a.member_id = v.member_id`,
      [voids.map((v) => v.round_id), voids.map((v) => v.member_id), voids.map((v) => v.voided_at)],
    );
  }
}

/** The batch's present rows, not into a course deleted or a round cancelled (their scans may arrive afterwards). */
const presentInsert = (schema: string, rows: StoredRowOf<typeof attendance>[]) =>
  insertRows(
    schema,
    attendance,
    rows,
    `WHERE NOT EXISTS (SELECT 1 FROM ${schema}.attendance_closed c
                        WHERE (c.scope = 'round' AND c.id = input.round_id) OR (c.scope = 'course' AND c.id = input.course_id))
     ON CONFLICT (round_id, member_id) DO UPDATE SET scanned_at = EXCLUDED.scanned_at,
       scanner_id = EXCLUDED.scanner_id, method = EXCLUDED.method, late = EXCLUDED.late,
       walk_in = EXCLUDED.walk_in, voided_at = EXCLUDED.voided_at`,
  );

/** A rebuild's counts of attempts, from every attempt it wrote (attempts are never changed or removed). */
const countAttempts = (sql: Sql, schema: string) =>
  sql.query(
    `INSERT INTO ${schema}.${scanAttemptCounts.storedAs} (course_id, round_id, outcome, n)
     SELECT course_id, round_id, outcome, count(*) FROM ${schema}.${scanAttempts.storedAs}
      GROUP BY course_id, round_id, outcome`,
  );

/** A course deleted or a round cancelled: scans of it that arrive later are not counted. */
const close = (sql: Sql, schema: string, scope: 'course' | 'round', id: string) =>
  sql.query(...insertRow(schema, attendanceClosed, { scope, id }, 'ON CONFLICT DO NOTHING'));

/**
 * The audit's row for an attempt at `position` (one function, not a closure made for each event),
 * read from the event's data as it is: a copy of decoded data with the outcome spread in cost
 * more than the rest of the attempt's work (about 4 microseconds each).
 */
const attemptRow = (
  position: number,
  outcome: 'accepted' | 'refused' | 'voided',
  reason: string | null,
  row: Attempt,
): StoredRowOf<typeof scanAttempts> => ({
  position,
  course_id: row.courseId,
  round_id: row.roundId,
  member_id: row.memberId,
  scanner_id: row.scannerId,
  outcome,
  reason,
  server_time: row.serverTime,
  device_id: row.deviceId ?? null,
  method: row.method ?? null,
  device_time: row.deviceTime ?? null,
  late_uploaded: row.lateUploaded ?? false,
  offline_decision: row.offlineDecision ?? null,
});

interface Attempt {
  courseId: string;
  roundId: string;
  memberId: string | null;
  scannerId: string;
  serverTime: string;
  deviceId?: string;
  method?: string;
  deviceTime?: string;
  lateUploaded?: boolean;
  offlineDecision?: string | null;
}

/**
 * The counts of the rounds and courses a batch touched, from the attendance that stands (not
 * voided, round not cancelled): a round's attended, a course's participate (distinct members)
 * and totalAttend (accepted scans). Counting what is stored, rather than adding to a total, gives
 * the same result whichever stream's events came first.
 */
async function recount(sql: Sql, schema: string, pending: Pending) {
  const rounds = [...pending.rounds];
  const courses = [...pending.courses];
  pending.rounds.clear();
  pending.courses.clear();
  if (rounds.length === 0 && courses.length === 0) return;
  await dropClosed(sql, schema, rounds, courses);
  // Two statements for the batch, whatever it touched (a CTE's UPDATE sees the rows as the
  // statement began: after dropClosed, as the counts need). The ids go as values, so that the
  // embedded database keeps one plan of it (list-parameter.ts).
  const roundIds = listParameter(rounds, 1);
  const courseIds = listParameter(courses, 1 + roundIds.params.length);
  await sql.query(
    `WITH rounds_counted AS (
       UPDATE ${schema}.rounds r SET attended = (
         SELECT count(*) FROM ${schema}.attendance a WHERE a.round_id = r.id AND a.voided_at IS NULL)
        WHERE r.id = ANY(${roundIds.sql}) RETURNING 1)
     UPDATE ${schema}.courses c SET participate = counts.members, total_attend = counts.scans
       FROM (SELECT id.id, n.members, n.scans FROM unnest(${courseIds.sql}) AS id(id)
               CROSS JOIN LATERAL (
                 -- One pass over the course's rows for both counts.
                 SELECT count(DISTINCT a.member_id) AS members, count(*) AS scans
                   FROM ${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id
                  WHERE a.course_id = id.id AND a.voided_at IS NULL) n) counts
      WHERE c.id = counts.id`,
    [...roundIds.params, ...courseIds.params],
  );
}

/**
 * Every round's and course's counts, as recount gives them, in one statement each: a rebuild's
 * read models start at 0, and those without attendance stay so.
 */
async function recountAll(sql: Sql, schema: string) {
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
    `UPDATE ${schema}.courses c SET participate = counts.members, total_attend = counts.scans
       FROM (SELECT a.course_id, count(DISTINCT a.member_id) AS members, count(*) AS scans
               FROM ${schema}.attendance a JOIN ${schema}.rounds r ON r.id = a.round_id
              WHERE a.voided_at IS NULL GROUP BY a.course_id) counts
      WHERE c.id = counts.course_id`,
  );
}

/**
 * Removes attendance of a deleted course or a cancelled round that a scan applied at the same
 * time as the deletion (by another projector, each not seeing the other's rows) left behind;
 * runs under the course's lock, so the later of the two always sees the other's rows.
 */
async function dropClosed(sql: Sql, schema: string, rounds: string[], courses: string[]) {
  // From the closed ones among the ids (few, by attendance_closed's key) to their rows: a scan of
  // the rounds' rows would check every one of them for nothing. One statement: a row of a closed
  // round in a closed course is deleted once.
  await sql.query(
    `WITH of_rounds AS (
       DELETE FROM ${schema}.attendance a WHERE a.round_id IN (
         SELECT c.id FROM ${schema}.attendance_closed c WHERE c.scope = 'round' AND c.id = ANY($1::text[])))
     DELETE FROM ${schema}.attendance a WHERE a.course_id IN (
       SELECT c.id FROM ${schema}.attendance_closed c WHERE c.scope = 'course' AND c.id = ANY($2::text[]))`,
    [rounds, courses],
  );
}
