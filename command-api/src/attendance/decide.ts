import {
  AttendanceScanned,
  AttendanceVoided,
  type AttendanceEvent,
  type OfflineDecision,
  type RefusalReason,
  ScanRefused,
  type ScanMethod,
} from '@portal/contracts/attendance/attendance.events';
import type { NewEventOf } from '@portal/contracts/catalogue';
import type { Command } from '../core/command.ts';
import type { Attendance } from './attendance.ts';
import { conflict } from '@portal/platform/domain/errors';

/** One attempt: who, where, with what, and when by each clock (the server's never from the body). */
export interface Attempt {
  courseId: string;
  roundId: string;
  /** '' when nobody matched what was scanned. */
  memberId: string;
  scannerId: string;
  deviceId: string;
  method: ScanMethod;
  deviceTime: string;
  serverTime: string;
  /** What the device decided alone, for a scan it queued offline. */
  offlineDecision?: OfflineDecision;
  /** A self check-in on a course with a place: how far from it the phone was (issue 23). */
  distanceMetres?: number | null;
}

/** What the rest of the portal says about this attempt, gathered before deciding. */
export interface ScanContext {
  round: { start: string; end: string };
  opensEarlyMinutes: number;
  closesLateMinutes: number;
  lateAfterMinutes: number;
  memberApproved: boolean;
  enrolled: boolean;
  /** Whether the course has a place for a walk-in. */
  hasRoom: boolean;
}

/** The attempt's scanner and server time are the command's actor and time (the workflow sets both). */
export type AttendanceCommand =
  | Command<'Scan', { attempt: Attempt; context: ScanContext }>
  | Command<'Refuse', { attempt: Attempt; reason: RefusalReason }>
  | Command<'Void', { attempt: Pick<Attempt, 'courseId' | 'roundId' | 'memberId'>; reason: string }>;

const MINUTE = 60_000;
const LATE_UPLOAD_MS = 2 * MINUTE;
const PLAUSIBLE_PAST_MS = 24 * 60 * MINUTE;

/**
 * The moment a scan counts at: the server's clock, except for a scan uploaded late (queued while
 * the device was offline), which keeps the time it was made when that is plausible (within the
 * last day); it is flagged `lateUploaded` for the audit.
 */
export function scanMoment(deviceTime: string, serverTime: string): { scannedAt: string; lateUploaded: boolean } {
  const device = Date.parse(deviceTime);
  const server = Date.parse(serverTime);
  const lateUploaded = server - device > LATE_UPLOAD_MS;
  const plausible = device >= server - PLAUSIBLE_PAST_MS;
  return { scannedAt: lateUploaded && plausible ? deviceTime : serverTime, lateUploaded };
}

/** Why a scan cannot count, or null: the rules of issue 5, in the order a person would ask them. */
export function refusalOf(state: Attendance, scannedAt: string, context: ScanContext): RefusalReason | null {
  if (state.accepted) return 'duplicate';
  const at = Date.parse(scannedAt);
  const opens = Date.parse(context.round.start) - context.opensEarlyMinutes * MINUTE;
  const closes = Date.parse(context.round.end) + context.closesLateMinutes * MINUTE;
  if (at < opens || at > closes) return 'roundNotActive';
  if (!context.memberApproved) return 'notApproved';
  if (!context.enrolled && !context.hasRoom) return 'courseFull';
  return null;
}

export function decide(command: AttendanceCommand, state: Attendance): NewEventOf<AttendanceEvent>[] {
  if (command.type === 'Void') {
    if (!state.accepted) throw conflict('attendance.nothingToVoid');
    const { actor, now } = command.metadata;
    return [
      AttendanceVoided.create({
        ...command.data.attempt,
        reason: command.data.reason,
        voidedBy: actor.id,
        voidedAt: now,
      }),
    ];
  }
  const { attempt } = command.data;
  const { scannedAt, lateUploaded } = scanMoment(attempt.deviceTime, attempt.serverTime);
  const refuse = (reason: RefusalReason) => [
    ScanRefused.create({
      ...attempt,
      memberId: attempt.memberId || null,
      lateUploaded,
      reason,
      firstScannedAt: reason === 'duplicate' ? state.accepted!.scannedAt : null,
    }),
  ];
  if (command.type === 'Refuse') return refuse(command.data.reason);
  const { context } = command.data;
  const reason = refusalOf(state, scannedAt, context);
  if (reason) return refuse(reason);
  const late = Date.parse(scannedAt) > Date.parse(context.round.start) + context.lateAfterMinutes * MINUTE;
  return [AttendanceScanned.create({ ...attempt, lateUploaded, scannedAt, late, walkIn: !context.enrolled })];
}
