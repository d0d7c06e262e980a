import { decodeCertificateEvent, DEFAULT_COMPLETION_PERCENT } from '@portal/contracts/certificates/certificate.events';
import { decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import type { StreamFold } from '@portal/platform/store/port';
import { forbidden, notFound } from '@portal/platform/domain/errors';
import { courseStream } from '@portal/contracts/courses/course.events';
import type { EventStore } from '@portal/platform/store/port';
import type { Actor } from '../core/command.ts';
import { type Round, roundsAfter } from '../courses/course.ts';

/**
 * A course as its certificates are decided (issue 23): who created it, its topic, its rounds that
 * stand (cancelled ones are not held) and everyone who was ever enrolled, walk-ins and those who
 * left included (attending is what counts, not being enrolled at the end).
 */
export type CourseToCertify =
  | { status: 'none' | 'deleted' }
  | { status: 'active'; creator: string; topic: string; rounds: Round[]; members: string[] };

export const courseToCertifyFold: StreamFold<CourseToCertify> = {
  initial: () => ({ status: 'none' }),
  evolve(state, stored) {
    const event = decodeCourseEvent(stored);
    if (!event) return state;
    if (event.type === 'CourseCreated') {
      const { creator, courseTopic } = event.data;
      return { status: 'active', creator, topic: courseTopic, rounds: [], members: [] };
    }
    if (state.status !== 'active') return state;
    switch (event.type) {
      case 'CourseUpdated':
        return { ...state, topic: event.data.courseTopic };
      case 'CourseDeleted':
        return { status: 'deleted' };
      case 'RoundScheduled':
      case 'RoundRescheduled':
      case 'RoundCancelled':
        return { ...state, rounds: roundsAfter(state.rounds, event) };
      case 'MemberEnrolled':
        return state.members.includes(event.data.memberId)
          ? state
          : { ...state, members: [...state.members, event.data.memberId] };
      default:
        return state;
    }
  },
};

/**
 * The course as its certificates see it, when it exists; and when `actor` is given, only if they
 * may manage it (its creator or an admin), as the course decider says for every course change.
 */
export async function courseToCertify(store: EventStore, courseId: string, actor?: Actor) {
  const { state } = await store.readFolded(courseStream(courseId), courseToCertifyFold);
  if (state.status !== 'active') throw notFound('course.notFound');
  if (actor && actor.role !== 'admin' && actor.id !== state.creator) throw forbidden('course.notCreator');
  return state;
}

/** The course's completion rule and when its certificates were last decided. */
export interface Completion {
  percent: number;
  checkedAt: string | null;
}

export const completionFold: StreamFold<Completion> = {
  initial: () => ({ percent: DEFAULT_COMPLETION_PERCENT, checkedAt: null }),
  evolve(state, stored) {
    const event = decodeCertificateEvent(stored);
    if (event?.type === 'CompletionRuleSet') return { ...state, percent: event.data.percent };
    if (event?.type === 'CompletionChecked') return { ...state, checkedAt: event.data.checkedAt };
    return state;
  },
};

/** A member's certificate of a course: none yet, or its number and whether it was revoked. */
export type Certificate = { status: 'none' } | { status: 'issued' | 'revoked'; certificateId: string };

export const certificateFold: StreamFold<Certificate> = {
  initial: () => ({ status: 'none' }),
  evolve(state, stored: StoredEvent) {
    const event = decodeCertificateEvent(stored);
    if (event?.type === 'CertificateIssued') return { status: 'issued', certificateId: event.data.certificateId };
    if (event?.type === 'CertificateRevoked' && state.status !== 'none') return { ...state, status: 'revoked' };
    return state;
  },
};

/** When the course's last round ends; null for a course without rounds. */
export function lastRoundEnd(rounds: readonly Round[]): string | null {
  let last: number | null = null;
  for (const round of rounds) last = Math.max(last ?? -Infinity, Date.parse(round.end));
  return last === null ? null : new Date(last).toISOString();
}

/** What one member earned: the held rounds they attended, and those rounds' hours. */
export interface Completer {
  memberId: string;
  attendedRounds: number;
  heldRounds: number;
  hours: number;
}

/**
 * Who completed the course: the members who attended (an accepted scan that was not voided) at
 * least `percent` of its held rounds. Asked only once every round has ended; every round that
 * stands is then held. Hours are those of the rounds attended, to a tenth.
 */
export function completers(
  rounds: readonly Round[],
  members: readonly string[],
  percent: number,
  attended: (memberId: string, roundId: string) => boolean,
): Completer[] {
  const held = rounds.length;
  if (held === 0) return [];
  const result: Completer[] = [];
  for (const memberId of members) {
    const theirs = rounds.filter((round) => attended(memberId, round.roundId));
    if (theirs.length * 100 < percent * held) continue;
    const ms = theirs.reduce((sum, round) => sum + Date.parse(round.end) - Date.parse(round.start), 0);
    result.push({ memberId, attendedRounds: theirs.length, heldRounds: held, hours: Math.round(ms / 360_000) / 10 });
  }
  return result;
}
