import type { ScanAttemptView } from '@portal/contracts/views/audit';
import { column, defineTable, identifier, nullableIdentifier, type RowOf } from '@portal/platform/read-models/table';

/**
 * The attendance read model: who counts as present in each round (voided scans kept but
 * marked), every scan attempt for the audit (accepted, refused with the reason, voided), and the
 * courses and rounds that are gone. Written by the projector's attendance projection (which also
 * keeps the courses read model's counts); read by the audit, the rosters, the reports.
 */
export const attendance = defineTable(
  'attendance',
  {
    round_id: identifier('NOT NULL'),
    member_id: identifier('NOT NULL'),
    course_id: identifier('NOT NULL'),
    scanned_at: column<Date>('timestamptz NOT NULL'),
    scanner_id: identifier('NOT NULL'),
    method: identifier('NOT NULL'),
    late: column<boolean>('boolean NOT NULL'),
    walk_in: column<boolean>('boolean NOT NULL'),
    voided_at: column<Date | null>('timestamptz'),
  },
  {
    primaryKey: ['round_id', 'member_id'],
    // The projector removes a deleted course's attendance by course_id, and recounts a member's
    // scans in a course by (member_id, course_id) (after a rebuild: a query index for the fill).
    indexes: {
      attendance_course: { on: 'course_id', projectorReads: true },
      attendance_member: 'member_id, course_id',
    },
  },
);
export type AttendanceRow = RowOf<typeof attendance>;

/** Every attempt, by its position in the log. */
export const scanAttempts = defineTable(
  'scan_attempts',
  {
    position: column<string | number>('bigint PRIMARY KEY'),
    course_id: identifier('NOT NULL'),
    round_id: identifier('NOT NULL'),
    member_id: nullableIdentifier(),
    scanner_id: identifier('NOT NULL'),
    device_id: nullableIdentifier(),
    method: nullableIdentifier(),
    outcome: identifier<ScanAttemptView['outcome']>('NOT NULL'),
    reason: column<string | null>('text'),
    device_time: column<Date | null>('timestamptz'),
    server_time: column<Date>('timestamptz NOT NULL'),
    late_uploaded: column<boolean>('boolean NOT NULL DEFAULT false'),
    offline_decision: nullableIdentifier(),
  },
  {
    indexes: {
      scan_attempts_round: 'round_id, server_time',
      // The audit of one member's attempts (a member has few among a million).
      scan_attempts_member: 'member_id, server_time',
      // The audit's date filter and the overview's scans per day.
      scan_attempts_time: 'server_time',
    },
  },
);
export type ScanAttemptRow = RowOf<typeof scanAttempts>;

/**
 * Deleted courses and cancelled rounds: a scan of theirs that arrives later (from another Kafka
 * partition than the deletion) must not bring their attendance back.
 */
export const attendanceClosed = defineTable(
  'attendance_closed',
  {
    scope: identifier<'course' | 'round'>('NOT NULL'),
    id: identifier('NOT NULL'),
  },
  { primaryKey: ['scope', 'id'] },
);

/**
 * How many attempts each round has of each outcome, kept with every insert into scan_attempts
 * (they are never changed or removed): the audit's total for a filter on course, round or
 * outcome is a sum over a few rows instead of a count over a million.
 */
export const scanAttemptCounts = defineTable(
  'scan_attempt_counts',
  {
    course_id: identifier('NOT NULL'),
    round_id: identifier('NOT NULL'),
    outcome: identifier<ScanAttemptView['outcome']>('NOT NULL'),
    n: column<string | number>('bigint NOT NULL'),
  },
  { primaryKey: ['course_id', 'round_id', 'outcome'] },
);

/**
 * Each member's standing scans in a course (not voided, in a round the courses read model has),
 * for members with at least one: the projector moves a course's counts (participate, totalAttend)
 * by the changes of the batch's own members, so a batch costs the same in a course of thirty
 * rounds as in a course of one.
 */
export const courseMembers = defineTable(
  'course_members',
  {
    course_id: identifier('NOT NULL'),
    member_id: identifier('NOT NULL'),
    scans: column<number>('integer NOT NULL'),
  },
  { primaryKey: ['course_id', 'member_id'] },
);

export const attendanceTables = [attendance, scanAttempts, scanAttemptCounts, attendanceClosed, courseMembers];

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** An attempt as the audit shows it, with the course's topic and the names the accounts read model holds. */
export const toScanAttemptView = (
  row: ScanAttemptRow & { topic: string | null; member_name: string | null; scanner_name: string | null },
): ScanAttemptView => ({
  position: Number(row.position),
  courseId: row.course_id,
  courseTopic: row.topic,
  roundId: row.round_id,
  memberId: row.member_id,
  memberName: row.member_name,
  scannerId: row.scanner_id,
  scannerName: row.scanner_name,
  deviceId: row.device_id,
  method: row.method,
  outcome: row.outcome,
  reason: row.reason,
  deviceTime: iso(row.device_time),
  serverTime: iso(row.server_time)!,
  lateUploaded: row.late_uploaded,
  offlineDecision: row.offline_decision,
});
