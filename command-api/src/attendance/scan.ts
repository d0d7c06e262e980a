import type { FastifyRequest } from 'fastify';
import { PersonalData, accountStream } from '@portal/contracts/accounts/account.events';
import type { AttendanceConfig } from '@portal/platform/attendance/config';
import {
  type OfflineDecision,
  type RefusalReason,
  type ScanMethod,
  attendanceStream,
  decodeAttendanceEvent,
  refusalStream,
} from '@portal/contracts/attendance/attendance.events';
import { profileLinkMember } from '@portal/contracts/attendance/pass-code';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { courseStream } from '@portal/contracts/courses/course.events';
import { HttpError } from '@portal/platform/http/errors';
import { open } from '@portal/platform/privacy/personal-data';
import type { EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { accountDecider } from '../accounts/decider.ts';
import { handleCommand, loadState } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf } from '../core/request-context.ts';
import { courseDecider } from '../courses/decider.ts';
import { type Active, hasRoom, scannable } from '../courses/decide.ts';
import { attendanceDecider } from './decider.ts';
import { type Attempt, type ScanContext, refusalOf, scanMoment } from './decide.ts';
import { courseOfRound } from './round-index.ts';
import { digestOf } from '../accounts/credentials.ts';

export interface ScanInput {
  userId: string;
  method: ScanMethod;
  deviceId: string;
  deviceTime?: string;
  offlineDecision?: OfflineDecision;
}

export type ScanOutcome =
  | { outcome: 'accepted'; memberId: string; scannedAt: string; late: boolean; walkIn: boolean; lateUploaded: boolean }
  | { outcome: 'refused'; memberId: string | null; reason: RefusalReason; firstScannedAt: string | null };

interface Deps {
  db: SqlDatabase;
  store: EventStore;
  config: AttendanceConfig;
}

/** The course and round a scan is for; only the course's creator, its assistants or an admin may scan in it. */
async function roundOf(deps: Deps, request: FastifyRequest, roundId: string) {
  const courseId = await courseOfRound(deps.db, roundId);
  if (!courseId) throw new HttpError(404, 'round.notFound');
  const { accountId, role } = request.session!;
  const course = scannable(await loadState(deps.store, courseDecider, courseStream(courseId)), {
    actor: { id: accountId, role },
  });
  const round = course.rounds.find((r) => r.roundId === roundId);
  if (!round) throw new HttpError(404, 'round.notFound');
  return { courseId, course, round };
}

/**
 * Who the scanner read: a pass code, a member id, or a username, with why it cannot count (an
 * expired pass, an id shown to the camera, a profile QR); null when nobody matches.
 */
async function memberOf(deps: Deps, input: ScanInput, now: number) {
  const reading = passKeysFor(deps.config.passSecret).read(input.userId, now);
  if (reading.kind === 'pass') {
    if (!reading.authentic) return null;
    return { memberId: reading.memberId, problem: reading.fresh ? null : ('codeExpired' as const) };
  }
  // The profile card's QR (a link to the profile) looks like a pass to the person holding it.
  const profile = profileLinkMember(reading.value);
  if (profile) return { memberId: profile, problem: 'profileQr' as const };
  let memberId = /^[0-9a-f]{24}$/.test(reading.value) ? reading.value : null;
  if (!memberId) {
    const [row] = await deps.db.query<{ account_id: string }>(
      `SELECT account_id FROM cmd.unique_values WHERE field = 'username' AND digest = $1`,
      [await digestOf(deps.db, 'username', reading.value)],
    );
    memberId = row?.account_id ?? null;
  }
  if (!memberId) return null;
  // A camera reads passes; a bare id or username is for typing (and a screenshot of one proves nothing).
  return { memberId, problem: input.method === 'camera' ? ('passRequired' as const) : null };
}

/**
 * One scan attempt (issue 5): recorded whatever its outcome, in the member's own attendance
 * stream for the round (or, when nobody matches, the round's refusals for this device).
 */
export async function scan(deps: Deps, request: FastifyRequest, roundId: string, input: ScanInput) {
  const { courseId, course, round } = await roundOf(deps, request, roundId);
  const serverTime = new Date().toISOString();
  const base = {
    courseId,
    roundId,
    scannerId: request.session!.accountId,
    deviceId: input.deviceId,
    method: input.method,
    deviceTime: input.deviceTime ?? serverTime,
    serverTime,
    ...(input.offlineDecision ? { offlineDecision: input.offlineDecision } : {}),
  };
  const options = { idempotency: idempotencyOf(request), metadata: { ...metadataOf(request), device: input.deviceId } };
  const { scannedAt } = scanMoment(base.deviceTime, serverTime);

  const member = await memberOf(deps, input, Date.parse(scannedAt));
  const account = member && (await loadState(deps.store, accountDecider, accountStream(member.memberId)));
  if (!member || !account || !('role' in account) || account.role !== 'member' || !('personal' in account)) {
    const attempt: Attempt = { ...base, memberId: '' };
    const result = await handleCommand(
      deps.store,
      attendanceDecider,
      refusalStream(roundId, input.deviceId),
      { type: 'Refuse', attempt, reason: 'unknownMember' },
      options,
    );
    return { result, memberId: null, name: null };
  }
  const attempt: Attempt = { ...base, memberId: member.memberId };
  const stream = attendanceStream(roundId, member.memberId);
  const name = (await open(deps.db, account.personal, PersonalData))?.fullName ?? null;
  if (member.problem) {
    const result = await handleCommand(
      deps.store,
      attendanceDecider,
      stream,
      { type: 'Refuse', attempt, reason: member.problem },
      options,
    );
    return { result, memberId: member.memberId, name };
  }
  const context = contextFor(deps.config, course, round, member.memberId, account.status === 'approved');
  // A walk-in takes a place in the course first; the course's stream decides whether one is left.
  const state = await loadState(deps.store, attendanceDecider, stream);
  if (!context.enrolled && refusalOf(state, scannedAt, context) === null) {
    context.hasRoom = await enrolWalkIn(deps, request, courseId, member.memberId);
  }
  const result = await handleCommand(
    deps.store,
    attendanceDecider,
    stream,
    { type: 'Scan', attempt, context },
    options,
  );
  return { result, memberId: member.memberId, name };
}

function contextFor(
  config: AttendanceConfig,
  course: Active,
  round: { start: string; end: string },
  memberId: string,
  memberApproved: boolean,
): ScanContext {
  const { opensEarlyMinutes, closesLateMinutes, lateAfterMinutes } = config;
  return {
    round,
    opensEarlyMinutes,
    closesLateMinutes,
    lateAfterMinutes,
    memberApproved,
    enrolled: course.enrolled.includes(memberId),
    hasRoom: hasRoom(course),
  };
}

async function enrolWalkIn(deps: Deps, request: FastifyRequest, courseId: string, memberId: string): Promise<boolean> {
  const { accountId, role } = request.session!;
  try {
    await handleCommand(
      deps.store,
      courseDecider,
      courseStream(courseId),
      { type: 'EnrolWalkIn', data: { memberId }, actor: { id: accountId, role }, now: new Date().toISOString() },
      { metadata: metadataOf(request) },
    );
    return true;
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 409) return false;
    throw error;
  }
}

/** What the attempt ended as: read back from the log, so a replayed request answers the same. */
export async function outcomeAt(store: EventStore, streamId: string, position: number): Promise<ScanOutcome> {
  const stored = (await store.readStream(streamId)).find((event) => event.position === position);
  const event = stored && decodeAttendanceEvent(stored);
  if (event?.type === 'AttendanceScanned') {
    const { memberId, scannedAt, late, walkIn, lateUploaded } = event.data;
    return { outcome: 'accepted', memberId, scannedAt, late, walkIn, lateUploaded };
  }
  if (event?.type === 'ScanRefused') {
    const { memberId, reason, firstScannedAt } = event.data;
    return { outcome: 'refused', memberId: memberId || null, reason, firstScannedAt };
  }
  throw new Error(`no scan at position ${position} of ${streamId}`);
}
