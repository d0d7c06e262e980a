import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/**
 * One member's attendance in one round lives in its own stream, so scans of different members
 * never contend, and two scanners scanning the same member at the same instant meet in one
 * stream: one scan is accepted, the other is recorded as a duplicate.
 */
export const attendanceStream = (roundId: string, memberId: string) => `attendance-${roundId}-${memberId}`;
/** Refused attempts whose member is unknown (a bad code, an unknown id) are kept per round and device. */
export const refusalStream = (roundId: string, deviceId: string) => `scan-refusals-${roundId}-${deviceId}`;
export const isAttendanceStream = (streamId: string) =>
  streamId.startsWith('attendance-') || streamId.startsWith('scan-refusals-');

const at = z.iso.datetime({ offset: true });
/** `self`: the member checked themselves in on the round's room code (issue 23). */
export const scannerMethods = ['camera', 'typed', 'barcode'] as const;
export const scanMethods = [...scannerMethods, 'self'] as const;
export type ScanMethod = (typeof scanMethods)[number];

export const refusalReasons = [
  'duplicate',
  'roundNotActive',
  'notApproved',
  'unknownMember',
  'codeExpired',
  'passRequired',
  'courseFull',
  'profileQr',
  // A member checking themselves in (issue 23): the room code was not the current one, the course
  // asks where they are and the phone did not say, they were outside the radius, this device
  // checked in someone else in the round, or the course is private and they are not enrolled.
  'roomCodeExpired',
  'locationRequired',
  'tooFar',
  'deviceUsed',
  'notEnrolled',
] as const;
export type RefusalReason = (typeof refusalReasons)[number];

/**
 * What a scanner decided alone while it had no connection (issue 18): accepted, a walk-in
 * requested (not promised), or why it refused. The server decides again; the audit shows both.
 */
export const offlineDecisions = ['accepted', 'walkInRequested', ...refusalReasons] as const;
export type OfflineDecision = (typeof offlineDecisions)[number];

/** Who scanned, with what, and when by each clock; common to every attempt. */
const attempt = {
  courseId: z.string(),
  roundId: z.string(),
  scannerId: z.string(),
  deviceId: z.string(),
  method: z.enum(scanMethods),
  /** When the scanning device says the scan was made (kept through offline queues). */
  deviceTime: at,
  /** When the server received it. */
  serverTime: at,
  /** Received more than 2 minutes after it was made (an offline queue replayed it). */
  lateUploaded: z.boolean(),
  /** What the device decided while offline, for a scan it queued (absent for scans sent at once). */
  offlineDecision: z.enum(offlineDecisions).nullable().optional(),
  /** A self check-in on a course that asks where members are: how far from the place (metres), not where. */
  distanceMetres: z.number().int().min(0).nullable().optional(),
};

export const AttendanceScanned = defineEvent(
  'AttendanceScanned',
  z.object({
    ...attempt,
    memberId: z.string(),
    /** The moment that counts: the device's time when it is plausible, otherwise the server's. */
    scannedAt: at,
    /** Arrived more than the configured minutes after the round started. */
    late: z.boolean(),
    /** Was not enrolled and was enrolled at the door. */
    walkIn: z.boolean(),
  }),
);

export const ScanRefused = defineEvent(
  'ScanRefused',
  z.object({
    ...attempt,
    memberId: z.string().nullable(),
    reason: z.enum(refusalReasons),
    /** For a duplicate: when the member's accepted scan happened. */
    firstScannedAt: at.nullable(),
  }),
);

/** An admin undoes a wrong scan; the scan stays in the log, the counts drop it. */
export const AttendanceVoided = defineEvent(
  'AttendanceVoided',
  z.object({
    courseId: z.string(),
    roundId: z.string(),
    memberId: z.string(),
    reason: z.string(),
    voidedBy: z.string(),
    voidedAt: at,
  }),
);

/** The device a member checked themselves in from, per round (`self-check-in-device-<round>-<device>`). */
export const deviceStream = (roundId: string, deviceId: string) => `self-check-in-device-${roundId}-${deviceId}`;

/** A device checked this member in to the round; on a one-member-per-device course, nobody else from it. */
export const DeviceCheckedIn = defineEvent(
  'DeviceCheckedIn',
  z.object({ roundId: z.string(), deviceId: z.string(), memberId: z.string(), checkedInAt: at }),
);
export const decodeDeviceEvent = createDecoder([DeviceCheckedIn] as const);
export type DeviceEvent = NonNullable<ReturnType<typeof decodeDeviceEvent>>;

export const attendanceEvents = [AttendanceScanned, ScanRefused, AttendanceVoided] as const;
export const decodeAttendanceEvent = createDecoder(attendanceEvents);
export type AttendanceEvent = NonNullable<ReturnType<typeof decodeAttendanceEvent>>;
