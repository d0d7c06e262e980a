import { z } from 'zod';
import { offlineDecisions, scanMethods } from '../attendance/attendance.events.ts';
import type { MessageKey } from './messages.ts';
import { multiLineText, singleLineText } from './text.ts';

const key = (messageKey: MessageKey) => messageKey;

/**
 * PUT /api/admin/updateround/{roundId}: the spec's `{userId}` (a pass code, a member id or a
 * username), plus how it was entered, by which device and when, for the audit and offline queues.
 */
export const ScanRequest = z.object({
  userId: singleLineText(key('attendance.userIdRequired'))
    .trim()
    .min(1, key('attendance.userIdRequired'))
    .max(200, key('attendance.userIdRequired')),
  method: z.enum(scanMethods).default('typed'),
  deviceId: singleLineText().trim().min(1).max(64).default('unknown'),
  deviceTime: z.iso.datetime({ offset: true, error: key('attendance.deviceTimeInvalid') }).optional(),
  /** For a scan queued offline: what the device decided alone (kept for the audit beside the server's answer). */
  offlineDecision: z.enum(offlineDecisions).optional(),
});

export const VoidRequest = z.object({
  reason: multiLineText(key('attendance.voidReasonRequired'))
    .trim()
    .min(1, key('attendance.voidReasonRequired'))
    .max(500),
});
