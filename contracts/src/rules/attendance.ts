import { z } from 'zod';
import { offlineDecisions, scannerMethods } from '../attendance/attendance.events.ts';
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
  // A scanner's methods: `self` is the room code's own call, never a scanner's.
  method: z.enum(scannerMethods).default('typed'),
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

/**
 * POST /api/rounds/{roundId}/self-check-in (issue 23): the room code the member's phone read, the
 * phone's own id (made once and kept on it), and where it is when the course asks.
 */
export const SelfCheckInRequest = z.object({
  code: singleLineText(key('attendance.roomCodeExpired'))
    .trim()
    .min(1, key('attendance.roomCodeExpired'))
    .max(64, key('attendance.roomCodeExpired')),
  deviceId: singleLineText(key('attendance.deviceRequired'))
    .trim()
    .min(8, key('attendance.deviceRequired'))
    .max(64, key('attendance.deviceRequired')),
  position: z
    .object({
      latitude: z
        .number({ error: key('selfCheckIn.latitude') })
        .min(-90, key('selfCheckIn.latitude'))
        .max(90, key('selfCheckIn.latitude')),
      longitude: z
        .number({ error: key('selfCheckIn.longitude') })
        .min(-180, key('selfCheckIn.longitude'))
        .max(180, key('selfCheckIn.longitude')),
    })
    .nullable()
    .default(null),
});
