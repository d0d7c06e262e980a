import { type RefusalReason, attendanceStream, deviceStream } from '@portal/contracts/attendance/attendance.events';
import { courseStream } from '@portal/contracts/courses/course.events';
import { roomCodeTaken } from '@portal/platform/attendance/room-code';
import { notFound } from '@portal/platform/domain/errors';
import type { AppendResult } from '@portal/platform/store/port';
import { memberStreamToScan, memberToScan } from '../accounts/lookup.ts';
import { foldOf, handleDecision, loadState } from '../core/command-handler.ts';
import { withPrefetched } from '../core/prefetched-streams.ts';
import { hasRoom, selfWalkIn } from '../courses/decide.ts';
import { courseDecider } from '../courses/decider.ts';
import { courseStreamToScan, courseToScan } from '../courses/scanning.ts';
import { type Attempt, type AttendanceCommand, type ScanContext, refusalOf } from './decide.ts';
import { attendanceDecider } from './decider.ts';
import { deviceDecider, deviceHolder } from './device.ts';
import { type ScanDeps, type ScanOutcome, type ScanRequestOf, recordAttempt } from './scan.ts';
import { type Position, metresBetween, selfCheckInRefusal } from './self-check-in-rules.ts';

export interface SelfCheckInInput {
  roundId: string;
  code: string;
  deviceId: string;
  position: Position | null;
}

type SelfCheckInRequest = Omit<ScanRequestOf, 'input'> & { input: SelfCheckInInput };

/**
 * A member checks themselves in on the round's room code (issue 23): the same rules as a scan
 * (enrolled, or a walk-in within capacity; once per round; late after the threshold), after the
 * room code, the course's place and the device say yes. Every attempt is recorded in the member's
 * attendance for the round, as a scan's is, with method `self`, the device, and the distance.
 */
export async function selfCheckIn(
  deps: ScanDeps,
  { actor, now, input, envelope }: SelfCheckInRequest,
): Promise<{ result: AppendResult; outcome: ScanOutcome | undefined; name: string | null }> {
  const courseId = await courseToScan(deps.db, input.roundId);
  const memberId = actor.id;
  const stream = attendanceStream(input.roundId, memberId);
  const devices = deviceStream(input.roundId, input.deviceId);
  deps = {
    ...deps,
    store: await withPrefetched(deps.store, [
      courseStreamToScan(courseId),
      memberStreamToScan(memberId),
      { streamId: stream, fold: foldOf(attendanceDecider) },
      { streamId: devices, fold: foldOf(deviceDecider) },
    ]),
  };
  const course = await loadState(deps.store, courseDecider, courseStream(courseId));
  if (course.status !== 'active') throw notFound('round.notFound');
  const round = course.rounds.find((r) => r.roundId === input.roundId);
  if (!round) throw notFound('round.notFound');
  const member = await memberToScan(deps, memberId);
  if (!member) throw notFound('attendance.unknownMember');

  const rules = course.selfCheckIn;
  const distanceMetres = rules.location && input.position ? metresBetween(input.position, rules.location) : null;
  const metadata = { actor, now };
  const options = { idempotency: envelope.idempotency, metadata: { ...envelope.metadata, device: input.deviceId } };
  const attempt: Attempt = {
    courseId,
    roundId: input.roundId,
    memberId,
    scannerId: memberId,
    deviceId: input.deviceId,
    method: 'self',
    deviceTime: now,
    serverTime: now,
    ...(rules.location ? { distanceMetres } : {}),
  };
  const record = async (command: AttendanceCommand) => {
    const recorded = await recordAttempt(deps.store, stream, command, options);
    return { result: recorded.result, outcome: recorded.outcome ?? undefined, name: member.name };
  };
  const refuse = (reason: RefusalReason) => record({ type: 'Refuse', data: { attempt, reason }, metadata });

  const device = deviceHolder(await loadState(deps.store, deviceDecider, devices), memberId);
  const selfReason = selfCheckInRefusal({
    codeTaken: roomCodeTaken(deps.config.passSecret, input.roundId, input.code, Date.parse(now)),
    rules,
    distanceMetres,
    device,
  });
  if (selfReason) return refuse(selfReason);

  const { opensEarlyMinutes, closesLateMinutes, lateAfterMinutes } = deps.config;
  const context: ScanContext = {
    round,
    opensEarlyMinutes,
    closesLateMinutes,
    lateAfterMinutes,
    memberApproved: member.approved,
    enrolled: course.enrolled.includes(memberId),
    hasRoom: hasRoom(course),
  };
  const state = await loadState(deps.store, attendanceDecider, stream);
  if (refusalOf(state, now, context) !== null) return record({ type: 'Scan', data: { attempt, context }, metadata });

  // A private course takes only who is enrolled: said before the device is taken, so a refused
  // stranger does not keep a member's phone from checking its owner in.
  if (!context.enrolled && course.visibility !== 'public') return refuse('notEnrolled');
  // The device first (on a course that allows one member per device): two members on one phone
  // at the same instant meet in its stream, and one of them is refused.
  if (rules.onePerDevice) {
    const claimed = await handleDecision(
      deps.store,
      deviceDecider,
      devices,
      (held) => {
        const holder = deviceHolder(held, memberId);
        return {
          events: deviceDecider.decide(
            { type: 'CheckInFrom', data: { roundId: input.roundId, deviceId: input.deviceId, memberId }, metadata },
            held,
          ),
          outcome: holder !== 'taken',
        };
      },
      { metadata: options.metadata },
    );
    if (claimed.outcome === false) return refuse('deviceUsed');
  }
  // A walk-in takes a place in the course first, decided in the course's stream.
  if (!context.enrolled) {
    const { outcome } = await handleDecision(
      deps.store,
      courseDecider,
      courseStream(courseId),
      (held) => {
        const decision = selfWalkIn(held, { memberId, now });
        return { events: decision.events, outcome: decision.admitted };
      },
      { metadata: options.metadata },
    );
    if (outcome === 'private') return refuse('notEnrolled');
    context.hasRoom = outcome === 'walkIn' || outcome === 'enrolled';
  }
  return record({ type: 'Scan', data: { attempt, context }, metadata });
}
