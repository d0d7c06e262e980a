import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import { type Sql, unlessUniqueViolation } from '@portal/platform/store/sql';
import { type StoredRowOf, copyRows, createTable, insertRow, insertRows } from '@portal/platform/read-models/table';
import {
  attendance,
  attendanceClosed,
  courseMembers,
  attendanceTables,
  scanAttemptCounts,
  scanAttempts,
} from '@portal/read-models/attendance';
import { type Batch, type Projection, readsOf, someOf } from '../../projection.ts';
import { type Member, type Touched, addMember, recount, recountAll } from './counts.ts';
import { fillAttendanceInDatabase, typesFilledInDatabase } from './rebuild-in-database.ts';

/** Of the courses' events, those that close or open a round or a course: the others change no count. */
const READS = readsOf(
  someOf(decodeCourseEvent, 'CourseDeleted', 'RoundCancelled', 'RoundScheduled'),
  decodeAttendanceEvent,
);

/**
 * Attendance: who counts as present in each round (`attendance`, voided scans kept but marked),
 * every attempt for the audit (`scan_attempts`: accepted, refused with the reason, voided), and
 * the counts the course list and details show (shared/DESIGN.md, count semantics; counts.ts): a
 * round's attended, a course's participate (distinct members) and totalAttend (accepted scans).
 * Absence depends on the clock (a round must have ended), so the query API computes it.
 */
export const attendanceProjection: Projection = {
  name: 'attendance',
  reads: READS,
  // Attendance keeps the course and round rows' counts.
  rebuiltWith: ['courses'],
  // Every row it writes is one course's (its count, its rounds', its members').
  byCourse: true,
  // 5: each member's scans in a course kept (course_members), the courses' counts moved by them.
  // 6: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 6,
  // A rebuild's scans, refusals and voids: one statement a span of the log (rebuild-in-database.ts).
  rebuildInDatabase: {
    types: typesFilledInDatabase,
    fill: (sql, schema, span) => fillAttendanceInDatabase(sql, schema, UPSERT, span),
  },
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
        await sql.query(
          `WITH members AS (DELETE FROM ${schema}.${courseMembers.storedAs} WHERE course_id = $1)
           DELETE FROM ${schema}.attendance WHERE course_id = $1`,
          [courseIdOf(course.streamId)],
        );
        return;
      case 'RoundCancelled': {
        await writePending(sql, schema, pending);
        await close(sql, schema, 'round', course.data.roundId);
        const removed = await sql.query<Member>(
          `DELETE FROM ${schema}.attendance WHERE round_id = $1 RETURNING course_id, member_id`,
          [course.data.roundId],
        );
        pending.recount(course.data.roundId, ...removed);
        return;
      }
      // Scans may have arrived before their round did (from another partition): they count now.
      case 'RoundScheduled':
        pending.schedule(course.data.roundId);
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
        pending.recount(e.roundId, { course_id: e.courseId, member_id: e.memberId });
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
        pending.recount(e.roundId, { course_id: e.courseId, member_id: e.memberId });
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
 * before a cancellation or a deletion and at the batch's end; the rounds and the courses'
 * members touched are recounted once, at the end (recount). Same rows as one event at a time
 * (projector/test/batch-boundaries.spec.ts).
 */
interface Pending extends Touched {
  present: Map<string, StoredRowOf<typeof attendance>>;
  voids: Map<string, Pick<StoredRowOf<typeof attendance>, 'round_id' | 'member_id' | 'voided_at'>>;
  attempts: StoredRowOf<typeof scanAttempts>[];
  /** A round and members whose counts may have changed. */
  recount(roundId: string, ...members: Member[]): void;
  /** A round scheduled: recounted, with the rows that came before it. */
  schedule(roundId: string): void;
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
    members: new Map(),
    scheduled: new Set(),
    recount(roundId, ...members) {
      // A rebuild counts everything at its end (recountAll): what its batches touched is not kept.
      if (this.rebuilding) return;
      this.rounds.add(roundId);
      for (const member of members) addMember(this.members, member);
    },
    schedule(roundId) {
      if (this.rebuilding) return;
      this.rounds.add(roundId);
      this.scheduled.add(roundId);
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
  const rows = [...pending.present.values()];
  pending.present.clear();
  const attempts = pending.attempts.splice(0);
  if (pending.rebuilding) {
    // A rebuild's attempts go into the fresh table by COPY, each once (every event is applied
    // once, in one lane), and are counted once, at the end (countAttempts).
    if (rows.length > 0) await insertRebuiltPresent(sql, schema, rows);
    await copyRows(sql, schema, scanAttempts, attempts);
  } else if (attempts.length > 0) {
    const present = rows.length > 0 ? presentInsert(schema, rows) : null;
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

/** A later scan of a member in a round replaces the earlier one (a scan again after a void). */
const UPSERT = `ON CONFLICT (round_id, member_id) DO UPDATE SET scanned_at = EXCLUDED.scanned_at,
       scanner_id = EXCLUDED.scanner_id, method = EXCLUDED.method, late = EXCLUDED.late,
       walk_in = EXCLUDED.walk_in, voided_at = EXCLUDED.voided_at`;

/**
 * The batch's present rows as the upsert, not into a course deleted or a round cancelled (their
 * scans may arrive afterwards).
 */
const presentInsert = (schema: string, rows: StoredRowOf<typeof attendance>[]) =>
  insertRows(
    schema,
    attendance,
    rows,
    `WHERE NOT EXISTS (SELECT 1 FROM ${schema}.attendance_closed c
                        WHERE (c.scope = 'round' AND c.id = input.round_id) OR (c.scope = 'course' AND c.id = input.course_id))
     ${UPSERT}`,
  );

/**
 * A rebuild's present rows of a batch: by COPY into the fresh table (plain inserts, COPY where
 * the database has it), and only if one of them is already there (a member scanned again in a
 * round after a void, in an earlier batch) as the upsert, in the place of the copy. PostgreSQL
 * carries out an upsert as a speculative insertion, which cost a third more than a plain insert
 * of the same rows, conflict or not (docs/performance.md, machine N), and a COPY about two thirds
 * of the CPU an insert of the same rows as arrays cost it (machine P); in a rebuild a conflict is
 * rare, and nothing but this lane writes these rows. The copy keeps rows of a round cancelled or
 * a course deleted earlier in the log, which the live insert leaves out: recountAll removes them
 * at the end, before anything is counted.
 */
const insertRebuiltPresent = (sql: Sql, schema: string, rows: StoredRowOf<typeof attendance>[]) =>
  unlessUniqueViolation(
    sql,
    'attendance_present',
    () => copyRows(sql, schema, attendance, rows),
    async () => void (await sql.query(...presentInsert(schema, rows))),
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
