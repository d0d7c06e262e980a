import { z } from 'zod';
import { pageParam, pageSizeParam, pageFields } from './query-params.ts';

const id = z.string().trim().max(64).optional();
/** A moment with its offset (the console sends ISO from the browser's zone); anything else is a 400. */
export const instant = z.iso.datetime({ offset: true, error: 'report.momentInvalid' }).optional();

/** The audit's filters: any of course, round, member, scanner, outcome, and a time range. */
export const AuditQuery = z.object({
  courseId: id,
  roundId: id,
  memberId: id,
  scannerId: id,
  outcome: z.enum(['accepted', 'refused', 'voided'], { error: 'audit.outcome' }).optional(),
  from: instant,
  to: instant,
  page: pageParam.default(1),
  pageSize: pageSizeParam(25),
  minPosition: z.coerce.number().int().optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One scan attempt as the audit shows it: who scanned whom, where, with what, and when by each clock. */
export const ScanAttemptView = z.object({
  position: z.number(),
  courseId: z.string(),
  courseTopic: z.string().nullable(),
  roundId: z.string(),
  memberId: z.string().nullable(),
  memberName: z.string().nullable(),
  scannerId: z.string(),
  scannerName: z.string().nullable(),
  deviceId: z.string().nullable(),
  method: z.string().nullable(),
  outcome: z.enum(['accepted', 'refused', 'voided']),
  reason: z.string().nullable(),
  deviceTime: z.string().nullable(),
  serverTime: z.string(),
  lateUploaded: z.boolean(),
  /** What the scanning device decided alone, offline, before the server's outcome (issue 18). */
  offlineDecision: z.string().nullable(),
});
export type ScanAttemptView = z.infer<typeof ScanAttemptView>;

export const AuditPage = z.object({
  success: z.literal(true),
  attempts: z.array(ScanAttemptView),
  ...pageFields,
  message: z.string(),
});

/** A member's attendance history: each round they were scanned in, newest first. */
export const AttendanceHistory = z.object({
  success: z.literal(true),
  attendance: z.array(
    z.object({
      courseId: z.string(),
      courseTopic: z.string().nullable(),
      roundId: z.string(),
      roundStartTime: z.string().nullable(),
      scannedAt: z.string(),
      late: z.boolean(),
      walkIn: z.boolean(),
      voided: z.boolean(),
    }),
  ),
  message: z.string(),
});

/** A course's counts as they stood at `asOf`, folded from the event log. */
export const CountsAsOfAnswer = z.object({
  success: z.literal(true),
  asOf: z.string(),
  counts: z.object({
    enrolled: z.number(),
    participate: z.number(),
    totalAttend: z.number(),
    totalAbsent: z.number(),
    rounds: z.array(
      z.object({
        _id: z.string(),
        roundStartTime: z.string(),
        roundEndTime: z.string(),
        attended: z.number(),
        absent: z.number(),
      }),
    ),
  }),
  message: z.string(),
});
