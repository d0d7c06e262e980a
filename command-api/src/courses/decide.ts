import {
  AssistantAdded,
  AssistantRemoved,
  CourseCreated,
  CourseDeleted,
  CourseImageChanged,
  CourseStatusChanged,
  type CourseStatus,
  CourseUpdated,
  type CourseEvent,
  MemberEnrolled,
  MemberUnenrolled,
  RoundCancelled,
  RoundRescheduled,
  RoundScheduled,
  SelfCheckInConfigured,
  type SelfCheckInRules,
} from '@portal/contracts/courses/course.events';
import type { NewEventOf } from '@portal/contracts/catalogue';
import type { Actor, Command } from '../core/command.ts';
import { roundsOverlap } from '@portal/contracts/rules/course';
import type { Course, Round } from './course.ts';
import { conflict, forbidden, notFound } from '@portal/platform/domain/errors';

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

export type CourseCommand =
  | Command<'CreateCourse', Details & { status: CourseStatus }>
  | Command<
      'UpdateCourse',
      { text?: Partial<Details> & Pick<Details, 'courseTopic' | 'courseDescription'>; status?: CourseStatus }
    >
  | Command<'ChangeCourseStatus', { status: CourseStatus }>
  | Command<'ChangeCourseImage', { imageUrl: string }>
  | Command<'DeleteCourse'>
  | Command<'ScheduleRound', Times>
  | Command<'RescheduleRound', Times>
  | Command<'CancelRound', { roundId: string }>
  | Command<'Enrol'>
  | Command<'Unenrol'>
  | Command<'EnrolWalkIn', { memberId: string }>
  /** An import enrols the members it created (admins, or the course's creator). */
  | Command<'EnrolMembers', { memberIds: string[] }>
  /** `eligible`: the person is approved and a member or partner (the handler read their account). */
  | Command<'AddAssistant', { assistantId: string; eligible: boolean }>
  | Command<'RemoveAssistant', { assistantId: string }>
  | Command<'ConfigureSelfCheckIn', SelfCheckInRules>;

type NewCourseEvent = NewEventOf<CourseEvent>;

export type Active = Extract<Course, { status: 'active' }>;

export function decide(command: CourseCommand, state: Course): NewCourseEvent[] {
  const { actor, now } = command.metadata;
  switch (command.type) {
    case 'CreateCourse':
      if (state.status !== 'none') throw conflict('request.conflict');
      if (actor.role === 'member') throw forbidden('course.staffOnly');
      return [CourseCreated.create({ ...command.data, creator: actor.id, createdAt: now })];
    case 'UpdateCourse': {
      const course = manageable(state, command.metadata);
      const { status, text } = command.data;
      const events: NewCourseEvent[] = [];
      if (text) {
        if (text.maxPeople !== undefined && text.maxPeople > 0 && text.maxPeople < course.enrolled.length) {
          throw conflict('course.belowEnrolled');
        }
        events.push(CourseUpdated.create({ ...text, maxPeople: text.maxPeople ?? course.maxPeople, updatedAt: now }));
      }
      if (status && status !== course.visibility) events.push(CourseStatusChanged.create({ status, changedAt: now }));
      return events;
    }
    case 'ChangeCourseStatus': {
      const course = manageable(state, command.metadata);
      return command.data.status === course.visibility
        ? []
        : [CourseStatusChanged.create({ status: command.data.status, changedAt: now })];
    }
    case 'ChangeCourseImage':
      manageable(state, command.metadata);
      return [CourseImageChanged.create({ imageUrl: command.data.imageUrl, changedAt: now })];
    case 'DeleteCourse':
      manageable(state, command.metadata);
      return [CourseDeleted.create({ deletedAt: now })];
    case 'ScheduleRound': {
      const course = manageable(state, command.metadata);
      mustNotOverlap(course.rounds, command.data);
      return [RoundScheduled.create({ ...command.data, scheduledAt: now })];
    }
    case 'RescheduleRound': {
      const course = manageable(state, command.metadata);
      notStarted(roundOf(course, command.data.roundId), now);
      mustNotOverlap(
        course.rounds.filter((round) => round.roundId !== command.data.roundId),
        command.data,
      );
      return [RoundRescheduled.create({ ...command.data, rescheduledAt: now })];
    }
    case 'CancelRound': {
      const course = manageable(state, command.metadata);
      notStarted(roundOf(course, command.data.roundId), now);
      return [RoundCancelled.create({ roundId: command.data.roundId, cancelledAt: now })];
    }
    case 'Enrol': {
      const course = existing(state);
      if (actor.role !== 'member') throw forbidden('enrol.membersOnly');
      if (course.visibility !== 'public') throw conflict('course.notPublic');
      if (course.enrolled.includes(actor.id)) return []; // enrolling twice takes one place
      if (!hasRoom(course)) throw conflict('course.full');
      return [MemberEnrolled.create({ memberId: actor.id, enrolledAt: now })];
    }
    case 'EnrolWalkIn': {
      const { admitted, events } = walkIn(state, command);
      if (!admitted) throw conflict('course.full');
      return events;
    }
    case 'EnrolMembers':
      return enrolMembers(state, command).events;
    case 'Unenrol': {
      const course = existing(state);
      if (!course.enrolled.includes(actor.id)) throw conflict('course.notEnrolled');
      return [MemberUnenrolled.create({ memberId: actor.id, unenrolledAt: now })];
    }
    case 'AddAssistant': {
      const course = manageable(state, command.metadata);
      const { assistantId, eligible } = command.data;
      if (!eligible) throw conflict('assistant.notEligible');
      if (assistantId === course.creator) throw conflict('assistant.isCreator');
      if (course.assistants.includes(assistantId)) return [];
      return [AssistantAdded.create({ assistantId, addedBy: actor.id, addedAt: now })];
    }
    case 'RemoveAssistant': {
      const course = manageable(state, command.metadata);
      if (!course.assistants.includes(command.data.assistantId)) return [];
      return [AssistantRemoved.create({ assistantId: command.data.assistantId, removedBy: actor.id, removedAt: now })];
    }
    case 'ConfigureSelfCheckIn': {
      const course = manageable(state, command.metadata);
      const same = JSON.stringify(course.selfCheckIn) === JSON.stringify(command.data);
      return same ? [] : [SelfCheckInConfigured.create({ ...command.data, configuredBy: actor.id, configuredAt: now })];
    }
    default: {
      const _exhaustive: never = command;
      throw new Error('unknown command');
    }
  }
}

/**
 * A member who came anyway, enrolled at the door by the scanner (the creator, an assistant or an
 * admin): admitted when already enrolled or a place is left, and then enrolled as a walk-in.
 */
export function walkIn(
  state: Course,
  { data: { memberId }, metadata }: Extract<CourseCommand, { type: 'EnrolWalkIn' }>,
): { admitted: boolean; events: NewCourseEvent[] } {
  const course = scannable(state, metadata);
  if (course.enrolled.includes(memberId)) return { admitted: true, events: [] };
  if (!hasRoom(course)) return { admitted: false, events: [] };
  const { actor, now } = metadata;
  return {
    admitted: true,
    events: [MemberEnrolled.create({ memberId, enrolledAt: now, walkIn: true, enrolledBy: actor.id })],
  };
}

/**
 * A member checking themselves in who is not enrolled (issue 23): a walk-in as at the door, when
 * the course is public and a place is left; a private course takes only who its creator enrolled.
 */
export function selfWalkIn(
  state: Course,
  { memberId, now }: { memberId: string; now: string },
): { admitted: 'enrolled' | 'walkIn' | 'full' | 'private'; events: NewCourseEvent[] } {
  const course = existing(state);
  if (course.enrolled.includes(memberId)) return { admitted: 'enrolled', events: [] };
  if (course.visibility !== 'public') return { admitted: 'private', events: [] };
  if (!hasRoom(course)) return { admitted: 'full', events: [] };
  return {
    admitted: 'walkIn',
    events: [MemberEnrolled.create({ memberId, enrolledAt: now, walkIn: true, enrolledBy: memberId })],
  };
}

/** Room for one more: `maxPeople` 0 means no limit. */
export const hasRoom = (course: Active) => course.maxPeople === 0 || course.enrolled.length < course.maxPeople;

function existing(state: Course): Active {
  if (state.status !== 'active') throw notFound('course.notFound');
  return state;
}

/** Only the creator, or an admin, changes a course, its status, image and rounds. */
export function manageable(state: Course, { actor }: { actor: Actor }): Active {
  const course = existing(state);
  if (actor.role !== 'admin' && actor.id !== course.creator) throw forbidden('course.notCreator');
  return course;
}

/** Scanning in a course's rounds (and enrolling walk-ins at the door): its creator, its assistants, admins. */
export function scannable(state: Course, { actor }: { actor: Actor }): Active {
  const course = existing(state);
  const allowed = actor.role === 'admin' || actor.id === course.creator || course.assistants.includes(actor.id);
  if (!allowed) throw forbidden('course.notScanner');
  return course;
}

function roundOf(course: Active, roundId: string): Round {
  const round = course.rounds.find((r) => r.roundId === roundId);
  if (!round) throw notFound('round.notFound');
  return round;
}

/**
 * A round that has started is history: cancelling or moving it would take its attendance out of
 * every count. Corrections are voids of single scans, with a reason, in the audit.
 */
function notStarted(round: Round, now: string): void {
  if (Date.parse(round.start) <= Date.parse(now)) throw conflict('round.alreadyStarted');
}

/** Rounds of one course never overlap; one may start when another ends. */
function mustNotOverlap(rounds: Round[], times: Times): void {
  const wanted = { start: times.roundStartTime, end: times.roundEndTime };
  if (rounds.some((round) => roundsOverlap(round, wanted))) {
    throw conflict('round.overlaps');
  }
}

/**
 * Enrols several members at once (an import, issue 23), as many as the course has room for, in
 * the order given; those already enrolled stay so. The outcome: who is enrolled afterwards.
 */
export function enrolMembers(
  state: Course,
  command: Extract<CourseCommand, { type: 'EnrolMembers' }>,
): { events: NewCourseEvent[]; outcome: Set<string> } {
  const course = manageable(state, command.metadata);
  const enrolled = new Set(course.enrolled);
  const events: NewCourseEvent[] = [];
  for (const memberId of command.data.memberIds) {
    if (enrolled.has(memberId)) continue;
    if (course.maxPeople > 0 && enrolled.size >= course.maxPeople) continue;
    enrolled.add(memberId);
    events.push(
      MemberEnrolled.create({ memberId, enrolledAt: command.metadata.now, enrolledBy: command.metadata.actor.id }),
    );
  }
  return { events, outcome: enrolled };
}
