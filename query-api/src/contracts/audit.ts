import { z } from 'zod';

const id = z.string().trim().max(64).optional();
const instant = z.iso.datetime({ offset: true }).optional().catch(undefined);

/** The audit's filters: any of course, round, member, scanner, outcome, and a time range. */
export const AuditQuery = z.object({
  courseId: id,
  roundId: id,
  memberId: id,
  scannerId: id,
  outcome: z.enum(['accepted', 'refused', 'voided']).optional().catch(undefined),
  from: instant,
  to: instant,
  page: z.coerce.number().int().min(1).default(1).catch(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25).catch(25),
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
});
export type ScanAttemptView = z.infer<typeof ScanAttemptView>;

export const AuditPage = z.object({
  success: z.literal(true),
  attempts: z.array(ScanAttemptView),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pages: z.number(),
  message: z.string(),
});
