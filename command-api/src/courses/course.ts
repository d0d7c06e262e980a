import {
  type CourseEvent,
  type CourseStatus,
  NO_SELF_CHECK_IN_RULES,
  type SelfCheckInRules,
} from '@portal/contracts/courses/course.events';

export interface Round {
  roundId: string;
  start: string;
  end: string;
}

/** What the command side knows of one course: enough to decide who may change it, rounds and capacity. */
export type Course =
  | { status: 'none' }
  | { status: 'deleted' }
  | {
      status: 'active';
      creator: string;
      visibility: CourseStatus;
      maxPeople: number;
      rounds: Round[];
      enrolled: string[];
      /** Scan-only assistants: may open the course's rounds and scan, nothing else. */
      assistants: string[];
      /** Where members checking themselves in must be, and whether a device checks in one member per round. */
      selfCheckIn: SelfCheckInRules;
    };

export const initialState = (): Course => ({ status: 'none' });

/** The course's rounds that stand after a round is scheduled, moved or cancelled. */
export function roundsAfter(
  rounds: readonly Round[],
  event: Extract<CourseEvent, { type: 'RoundScheduled' | 'RoundRescheduled' | 'RoundCancelled' }>,
): Round[] {
  const others = rounds.filter((r) => r.roundId !== event.data.roundId);
  if (event.type === 'RoundCancelled') return others;
  const { roundId, roundStartTime: start, roundEndTime: end } = event.data;
  return [...others, { roundId, start, end }];
}

export function evolve(state: Course, event: CourseEvent): Course {
  if (event.type === 'CourseCreated') {
    const { creator, status, maxPeople } = event.data;
    return {
      status: 'active',
      creator,
      visibility: status,
      maxPeople,
      rounds: [],
      enrolled: [],
      assistants: [],
      selfCheckIn: NO_SELF_CHECK_IN_RULES,
    };
  }
  if (state.status !== 'active') return state;
  switch (event.type) {
    case 'CourseUpdated':
      return { ...state, maxPeople: event.data.maxPeople };
    case 'CourseStatusChanged':
      return { ...state, visibility: event.data.status };
    case 'CourseImageChanged':
      return state;
    case 'CourseDeleted':
      return { status: 'deleted' };
    case 'RoundScheduled':
    case 'RoundRescheduled':
    case 'RoundCancelled':
      return { ...state, rounds: roundsAfter(state.rounds, event) };
    case 'MemberEnrolled':
      return { ...state, enrolled: [...state.enrolled, event.data.memberId] };
    case 'MemberUnenrolled':
      return { ...state, enrolled: state.enrolled.filter((id) => id !== event.data.memberId) };
    case 'AssistantAdded':
      return { ...state, assistants: [...state.assistants, event.data.assistantId] };
    case 'AssistantRemoved':
      return { ...state, assistants: state.assistants.filter((id) => id !== event.data.assistantId) };
    case 'SelfCheckInConfigured':
      return { ...state, selfCheckIn: { location: event.data.location, onePerDevice: event.data.onePerDevice } };
    default: {
      const _exhaustive: never = event;
      return state;
    }
  }
}
