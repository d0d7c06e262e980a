import type { AttendanceConfig } from '@portal/platform/attendance/config';
import {
  type OfflineDecision,
  type RefusalReason,
  type ScanMethod,
  type AttendanceEvent,
  attendanceStream,
  decodeAttendanceEvent,
  refusalStream,
} from '@portal/contracts/attendance/attendance.events';
import { profileLinkMember } from '@portal/contracts/attendance/pass-code';
import type { NewEventOf } from '@portal/contracts/catalogue';
import type { EventMetadata } from '@portal/contracts/envelope';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { DomainError } from '@portal/platform/domain/errors';
import { type AppendOptions, type AppendResult, type EventStore, ReadStreamsMoved } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { accountIdOfUsername, memberStreamToScan, memberToScan } from '../accounts/lookup.ts';
import type { SignedInMetadata } from '../core/command.ts';
import { foldOf, handleDecision, loadState } from '../core/command-handler.ts';
import { withPrefetched, withRemembered } from '../core/prefetched-streams.ts';
import { hasRoom } from '../courses/decide.ts';
import { admitWalkIn, courseStreamToScan, courseToScan, roundToScan } from '../courses/scanning.ts';
import { type Attempt, type AttendanceCommand, type ScanContext, refusalOf, scanMoment } from './decide.ts';
import { attendanceDecider } from './decider.ts';

export interface ScanInput {
  roundId: string;
  userId: string;
  method: ScanMethod;
  deviceId: string;
  deviceTime?: string;
  offlineDecision?: OfflineDecision;
}

export type ScanOutcome =
  | { outcome: 'accepted'; memberId: string; scannedAt: string; late: boolean; walkIn: boolean; lateUploaded: boolean }
  | { outcome: 'refused'; memberId: string | null; reason: RefusalReason; firstScannedAt: string | null };

export interface ScanDeps {
  db: SqlDatabase;
  store: EventStore;
  config: AttendanceConfig;
}

/** One scan as the workflow receives it: who scans and when, what they sent, and the request's envelope. */
export interface ScanRequestOf extends SignedInMetadata {
  input: ScanInput;
  /** The idempotency key and the events' metadata (correlation, device), from the transport. */
  envelope: { idempotency?: AppendOptions['idempotency']; metadata: EventMetadata };
}

/**
 * Who the scanner read: a pass code, a member id, or a username, with why it cannot count (an
 * expired pass, an id shown to the camera, a profile QR); null when nobody matches.
 */
async function readMember(deps: ScanDeps, input: ScanInput, now: number) {
  const reading = passKeysFor(deps.config.passSecret).read(input.userId, now);
  if (reading.kind === 'pass') {
    if (!reading.authentic) return null;
    return { memberId: reading.memberId, problem: reading.fresh ? null : ('codeExpired' as const) };
  }
  // The profile card's QR (a link to the profile) looks like a pass to the person holding it.
  const profile = profileLinkMember(reading.value);
  if (profile) return { memberId: profile, problem: 'profileQr' as const };
  const memberId = /^[0-9a-f]{24}$/.test(reading.value)
    ? reading.value
    : await accountIdOfUsername(deps.db, reading.value);
  if (!memberId) return null;
  // A camera reads passes; a bare id or username is for typing (and a screenshot of one proves nothing).
  return { memberId, problem: input.method === 'camera' ? ('passRequired' as const) : null };
}

/**
 * The scan workflow (issue 5): asks the courses area for the round (and whether the actor may scan
 * in it), the accounts area for the member, decides with the member's attendance for the round,
 * and asks the course for a walk-in's place first. Every attempt is recorded whatever its outcome,
 * in the member's own attendance stream for the round (or, when nobody matches, the round's
 * refusals for this device).
 */
export async function scan(deps: ScanDeps, request: ScanRequestOf): Promise<Scanned> {
  const { now, input } = request;
  const courseId = await courseToScan(deps.db, input.roundId);
  const { scannedAt } = scanMoment(input.deviceTime ?? now, now);
  const read = await readMember(deps, input, Date.parse(scannedAt));
  const streams = [courseStreamToScan(courseId)];
  if (read) {
    const attendance = attendanceStream(input.roundId, read.memberId);
    const fold = foldOf(attendanceDecider);
    streams.push(memberStreamToScan(read.memberId), { streamId: attendance, fold, newWhenUnknown: true });
  }
  // Decided first on the streams as this process remembers them, when it does: no read. That
  // decision is appended only if they have not moved since (withRemembered), and refused before
  // anything is written otherwise; so is a refusal made before any append (no such round, not the
  // course's scanner), on which what is remembered may not have the last word. Either is then
  // decided again on the streams as read, in one round trip. Any other failure is the caller's.
  const remembered = withRemembered(deps.store, streams);
  if (remembered) {
    try {
      const scanned = await scanOn({ ...deps, store: remembered }, request, courseId, read, true);
      if (scanned) return scanned;
    } catch (error) {
      if (!(error instanceof ReadStreamsMoved || error instanceof DomainError)) throw error;
    }
  }
  return scanOn({ ...deps, store: await withPrefetched(deps.store, streams) }, request, courseId, read, false);
}

type Scanned = { result: AppendResult; outcome: ScanOutcome | undefined; memberId: string | null; name: string | null };

type MemberRead = Awaited<ReturnType<typeof readMember>>;

/**
 * The scan decided on the streams `deps.store` answers. Null, with nothing written, for a walk-in
 * decided on remembered streams: it appends twice (the course's place, then the scan), so it is
 * decided on the streams as read.
 */
function scanOn(
  deps: ScanDeps,
  request: ScanRequestOf,
  courseId: string,
  read: MemberRead,
  remembered: true,
): Promise<Scanned | null>;
function scanOn(
  deps: ScanDeps,
  request: ScanRequestOf,
  courseId: string,
  read: MemberRead,
  remembered: false,
): Promise<Scanned>;
async function scanOn(
  deps: ScanDeps,
  { actor, now, input, envelope }: ScanRequestOf,
  courseId: string,
  read: MemberRead,
  remembered: boolean,
): Promise<Scanned | null> {
  const { scannedAt } = scanMoment(input.deviceTime ?? now, now);
  const { course, round } = await roundToScan(deps, input.roundId, { actor });
  const base = {
    courseId,
    roundId: input.roundId,
    scannerId: actor.id,
    deviceId: input.deviceId,
    method: input.method,
    deviceTime: input.deviceTime ?? now,
    serverTime: now,
    ...(input.offlineDecision ? { offlineDecision: input.offlineDecision } : {}),
  };
  const options = { idempotency: envelope.idempotency, metadata: { ...envelope.metadata, device: input.deviceId } };
  const record = (streamId: string, command: AttendanceCommand) =>
    recordAttempt(deps.store, streamId, command, options);
  const metadata = { actor, now };
  const member = read && (await memberToScan(deps, read.memberId));
  if (!read || !member) {
    const attempt: Attempt = { ...base, memberId: '' };
    const recorded = await record(refusalStream(input.roundId, input.deviceId), {
      type: 'Refuse',
      data: { attempt, reason: 'unknownMember' },
      metadata,
    });
    return { ...recorded, memberId: null, name: null };
  }
  const attempt: Attempt = { ...base, memberId: read.memberId };
  const stream = attendanceStream(input.roundId, read.memberId);
  const answer = (recorded: Awaited<ReturnType<typeof record>>) => ({
    ...recorded,
    memberId: read.memberId,
    name: member.name,
  });
  if (read.problem) {
    return answer(await record(stream, { type: 'Refuse', data: { attempt, reason: read.problem }, metadata }));
  }
  const { opensEarlyMinutes, closesLateMinutes, lateAfterMinutes } = deps.config;
  const context: ScanContext = {
    round,
    opensEarlyMinutes,
    closesLateMinutes,
    lateAfterMinutes,
    memberApproved: member.approved,
    enrolled: course.enrolled.includes(read.memberId),
    hasRoom: hasRoom(course),
  };
  // A walk-in takes a place in the course first; the course's stream decides whether one is left.
  if (!context.enrolled && remembered) return null;
  if (
    !context.enrolled &&
    refusalOf(await loadState(deps.store, attendanceDecider, stream), scannedAt, context) === null
  ) {
    context.hasRoom = await admitWalkIn(deps.store, courseId, read.memberId, metadata, envelope.metadata);
  }
  return answer(await record(stream, { type: 'Scan', data: { attempt, context }, metadata }));
}

/**
 * Decides and appends one attempt (a scan, a self check-in, a refusal) in its stream. Its outcome
 * is that of the event decided (no need to read it back), unless the idempotency key was seen
 * before: then it is undefined, and read back from the log (outcomeAt).
 */
export const recordAttempt = (
  store: EventStore,
  streamId: string,
  command: AttendanceCommand,
  options: Parameters<typeof handleDecision>[4],
) =>
  handleDecision(
    store,
    attendanceDecider,
    streamId,
    (state) => {
      const events = attendanceDecider.decide(command, state);
      return { events, outcome: events.length > 0 ? outcomeOf(events.at(-1)!) : undefined };
    },
    options,
  );

/** What the attempt ended as: read back from the log, so a replayed request answers the same. */
export async function outcomeAt(store: EventStore, streamId: string, position: number): Promise<ScanOutcome> {
  const stored = (await store.readStream(streamId)).find((event) => event.position === position);
  const event = stored && decodeAttendanceEvent(stored);
  if (!event) throw new Error(`no scan at position ${position} of ${streamId}`);
  return outcomeOf(event);
}

/** What an attempt's event says of it. */
export function outcomeOf(event: NewEventOf<AttendanceEvent>): ScanOutcome {
  if (event.type === 'AttendanceScanned') {
    const { memberId, scannedAt, late, walkIn, lateUploaded } = event.data;
    return { outcome: 'accepted', memberId, scannedAt, late, walkIn, lateUploaded };
  }
  if (event.type === 'ScanRefused') {
    const { memberId, reason, firstScannedAt } = event.data;
    return { outcome: 'refused', memberId: memberId || null, reason, firstScannedAt };
  }
  throw new Error(`${event.type} is not the outcome of a scan`);
}
