import { courseStream } from '@portal/contracts/courses/course.events';
import type { EventMetadata } from '@portal/contracts/envelope';
import { notFound } from '@portal/platform/domain/errors';
import type { EventStore, StreamFold } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import { foldOf, handleDecision, loadState } from '../core/command-handler.ts';
import type { StreamToRead } from '../core/prefetched-streams.ts';
import type { SignedInMetadata } from '../core/command.ts';
import { type Active, scannable, walkIn } from './decide.ts';
import { courseDecider } from './decider.ts';
import { courseOfRound } from './round-index.ts';

/** What the scan workflow asks of the courses area. */

/** The course a round belongs to; a round nobody scheduled is not found. */
export async function courseToScan(db: Sql, roundId: string): Promise<string> {
  const courseId = await courseOfRound(db, roundId);
  if (!courseId) throw notFound('round.notFound');
  return courseId;
}

/** The course's stream as roundToScan reads it, to read with the scan's other streams at once. */
export const courseStreamToScan = (courseId: string): StreamToRead => ({
  streamId: courseStream(courseId),
  fold: foldOf(courseDecider) as StreamFold<unknown>,
});

/** The course and round a scan is for; only the course's creator, its assistants or an admin may scan in it. */
export async function roundToScan(
  deps: { db: Sql; store: EventStore },
  roundId: string,
  metadata: Pick<SignedInMetadata, 'actor'>,
): Promise<{ courseId: string; course: Active; round: { start: string; end: string } }> {
  const courseId = await courseToScan(deps.db, roundId);
  const course = scannable(await loadState(deps.store, courseDecider, courseStream(courseId)), metadata);
  const round = course.rounds.find((r) => r.roundId === roundId);
  if (!round) throw notFound('round.notFound');
  return { courseId, course, round };
}

/** Enrols a member who came anyway, when a place is left (decided with the course's stream locked). */
export async function admitWalkIn(
  store: EventStore,
  courseId: string,
  memberId: string,
  metadata: SignedInMetadata,
  eventMetadata: EventMetadata,
): Promise<boolean> {
  const { outcome } = await handleDecision(
    store,
    courseDecider,
    courseStream(courseId),
    (state) => {
      const { admitted, events } = walkIn(state, { type: 'EnrolWalkIn', data: { memberId }, metadata });
      return { events, outcome: admitted };
    },
    { metadata: eventMetadata },
  );
  return outcome ?? false;
}
