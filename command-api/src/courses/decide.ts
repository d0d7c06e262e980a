import type { Role } from '@portal/contracts/accounts/account.events';
import {
  AssistantAdded,
  AssistantRemoved,
  CourseCreated,
  CourseDeleted,
  CourseImageChanged,
  CourseStatusChanged,
  type CourseStatus,
  CourseUpdated,
  MemberEnrolled,
  MemberUnenrolled,
  RoundCancelled,
  RoundRescheduled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import type { NewEvent } from '@portal/contracts/envelope';
import { HttpError } from '@portal/platform/http/errors';
import { roundsOverlap } from '@portal/contracts/rules/course';
import type { Course, Round } from './course.ts';

/** Who asks and when: from the verified session and the server's clock, never from the body. */
export interface Context {
  actor: { id: string; role: Role };
  now: string;
}

interface Details {
  courseTopic: string;
  courseDescription: string;
  maxPeople: number;
}
interface Times {
  roundId: string;
  roundStartTime: string;
  roundEndTime: string;
}

export type CourseCommand = Context &
  (
    | { type: 'CreateCourse'; data: Details & { status: CourseStatus } }
    | {
        type: 'UpdateCourse';
        data: { text?: Partial<Details> & Pick<Details, 'courseTopic' | 'courseDescription'>; status?: CourseStatus };
      }
    | { type: 'ChangeCourseStatus'; data: { status: CourseStatus } }
    | { type: 'ChangeCourseImage'; data: { imageUrl: string } }
    | { type: 'DeleteCourse'; data: Record<string, never> }
    | { type: 'ScheduleRound'; data: Times }
    | { type: 'RescheduleRound'; data: Times }
    | { type: 'CancelRound'; data: { roundId: string } }
    | { type: 'Enrol'; data: Record<string, never> }
    | { type: 'Unenrol'; data: Record<string, never> }
    | { type: 'EnrolWalkIn'; data: { memberId: string } }
    /** `eligible`: the person is approved and a member or partner (the handler read their account). */
    | { type: 'AddAssistant'; data: { assistantId: string; eligible: boolean } }
    | { type: 'RemoveAssistant'; data: { assistantId: string } }
  );

export type Active = Extract<Course, { status: 'active' }>;

export function decide(command: CourseCommand, state: Course): NewEvent[] {
  const { actor, now } = command;
  switch (command.type) {
    case 'CreateCourse':
      if (state.status !== 'none') throw new Error('course already exists');
      if (actor.role === 'member') throw new HttpError(403, 'auth.forbidden');
      return [CourseCreated.create({ ...command.data, creator: actor.id, createdAt: now })];
    case 'UpdateCourse': {
      const course = manageable(state, command);
      const { status, text } = command.data;
      const events: NewEvent[] = [];
      if (text) {
        if (text.maxPeople !== undefined && text.maxPeople > 0 && text.maxPeople < course.enrolled.length) {
          throw new HttpError(409, 'course.belowEnrolled');
        }
        events.push(CourseUpdated.create({ ...text, maxPeople: text.maxPeople ?? course.maxPeople, updatedAt: now }));
      }
      if (status && status !== course.visibility) events.push(CourseStatusChanged.create({ status, changedAt: now }));
      return events;
    }
    case 'ChangeCourseStatus': {
      const course = manageable(state, command);
      return command.data.status === course.visibility
        ? []
        : [CourseStatusChanged.create({ status: command.data.status, changedAt: now })];
    }
    case 'ChangeCourseImage':
      manageable(state, command);
      return [CourseImageChanged.create({ imageUrl: command.data.imageUrl, changedAt: now })];
    case 'DeleteCourse':
      manageable(state, command);
      return [CourseDeleted.create({ deletedAt: now })];
    case 'ScheduleRound': {
      const course = manageable(state, command);
      mustNotOverlap(course.rounds, command.data);
      return [RoundScheduled.create({ ...command.data, scheduledAt: now })];
    }
    case 'RescheduleRound': {
      const course = manageable(state, command);
      notStarted(roundOf(course, command.data.roundId), now);
      mustNotOverlap(
        course.rounds.filter((round) => round.roundId !== command.data.roundId),
        command.data,
      );
      return [RoundRescheduled.create({ ...command.data, rescheduledAt: now })];
    }
    case 'CancelRound': {
      const course = manageable(state, command);
      notStarted(roundOf(course, command.data.roundId), now);
      return [RoundCancelled.create({ roundId: command.data.roundId, cancelledAt: now })];
    }
    case 'Enrol': {
      const course = existing(state);
      if (actor.role !== 'member') throw new HttpError(403, 'auth.forbidden');
      if (course.visibility !== 'public') throw new HttpError(409, 'course.notPublic');
      if (course.enrolled.includes(actor.id)) return []; // enrolling twice takes one place
      if (!hasRoom(course)) throw new HttpError(409, 'course.full');
      return [MemberEnrolled.create({ memberId: actor.id, enrolledAt: now })];
    }
    case 'EnrolWalkIn': {
      // The scanner at the door (the creator, an assistant or an admin) enrols a member who came anyway.
      const course = scannable(state, command);
      const { memberId } = command.data;
      if (course.enrolled.includes(memberId)) return [];
      if (!hasRoom(course)) throw new HttpError(409, 'course.full');
      return [MemberEnrolled.create({ memberId, enrolledAt: now, walkIn: true, enrolledBy: actor.id })];
    }
    case 'Unenrol': {
      const course = existing(state);
      if (!course.enrolled.includes(actor.id)) throw new HttpError(409, 'course.notEnrolled');
      return [MemberUnenrolled.create({ memberId: actor.id, unenrolledAt: now })];
    }
    case 'AddAssistant': {
      const course = manageable(state, command);
      const { assistantId, eligible } = command.data;
      if (!eligible) throw new HttpError(409, 'assistant.notEligible');
      if (assistantId === course.creator) throw new HttpError(409, 'assistant.isCreator');
      if (course.assistants.includes(assistantId)) return [];
      return [AssistantAdded.create({ assistantId, addedBy: actor.id, addedAt: now })];
    }
    case 'RemoveAssistant': {
      const course = manageable(state, command);
      if (!course.assistants.includes(command.data.assistantId)) return [];
      return [AssistantRemoved.create({ assistantId: command.data.assistantId, removedBy: actor.id, removedAt: now })];
    }
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/** Room for one more: `maxPeople` 0 means no limit. */
export const hasRoom = (course: Active) => course.maxPeople === 0 || course.enrolled.length < course.maxPeople;

function existing(state: Course): Active {
  if (state.status !== 'active') throw new HttpError(404, 'course.notFound');
  return state;
}

/** Only the creator, or an admin, changes a course, its status, image and rounds. */
export function manageable(state: Course, { actor }: Pick<Context, 'actor'>): Active {
  const course = existing(state);
  if (actor.role !== 'admin' && actor.id !== course.creator) throw new HttpError(403, 'course.notCreator');
  return course;
}

/** Scanning in a course's rounds (and enrolling walk-ins at the door): its creator, its assistants, admins. */
export function scannable(state: Course, { actor }: Pick<Context, 'actor'>): Active {
  const course = existing(state);
  const allowed = actor.role === 'admin' || actor.id === course.creator || course.assistants.includes(actor.id);
  if (!allowed) throw new HttpError(403, 'course.notScanner');
  return course;
}

function roundOf(course: Active, roundId: string): Round {
  const round = course.rounds.find((r) => r.roundId === roundId);
  if (!round) throw new HttpError(404, 'round.notFound');
  return round;
}

/**
 * A round that has started is history: cancelling or moving it would take its attendance out of
 * every count. Corrections are voids of single scans, with a reason, in the audit.
 */
function notStarted(round: Round, now: string): void {
  if (Date.parse(round.start) <= Date.parse(now)) throw new HttpError(409, 'round.alreadyStarted');
}

/** Rounds of one course never overlap; one may start when another ends. */
function mustNotOverlap(rounds: Round[], times: Times): void {
  const wanted = { start: times.roundStartTime, end: times.roundEndTime };
  if (rounds.some((round) => roundsOverlap(round, wanted))) {
    throw new HttpError(409, 'round.overlaps');
  }
}
