import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { courseStream, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import type { EventStore } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';

export interface CountsAsOf {
  enrolled: number;
  participate: number;
  totalAttend: number;
  totalAbsent: number;
  rounds: { _id: string; roundStartTime: string; roundEndTime: string; attended: number; absent: number }[];
}

/**
 * A course's counts as they stood at `asOf`, folded from the event log itself (not the read
 * models): the events recorded up to that moment, with the same count semantics (DESIGN.md).
 * Answers null when the course did not exist yet (or no longer existed) then.
 */
export async function countsAsOf(
  sql: Sql,
  store: EventStore,
  courseId: string,
  asOf: Date,
): Promise<CountsAsOf | null> {
  const until = (event: StoredEvent) => Date.parse(event.createdAt) <= asOf.getTime();
  const courseEvents = (await store.readStream(courseStream(courseId))).filter(until);
  let exists = false;
  // Each member's enrolment periods, to tell who was expected at a round's start (absence.ts).
  const periods = new Map<string, { from: string; to: string | null }[]>();
  const rounds = new Map<string, { start: string; end: string }>();
  for (const stored of courseEvents) {
    const event = decodeCourseEvent(stored);
    if (!event) continue;
    switch (event.type) {
      case 'CourseCreated':
        exists = true;
        break;
      case 'CourseDeleted':
        exists = false;
        break;
      case 'RoundScheduled':
      case 'RoundRescheduled':
        rounds.set(event.data.roundId, { start: event.data.roundStartTime, end: event.data.roundEndTime });
        break;
      case 'RoundCancelled':
        rounds.delete(event.data.roundId);
        break;
      case 'MemberEnrolled':
        periods.set(event.data.memberId, [
          ...(periods.get(event.data.memberId) ?? []),
          { from: event.data.enrolledAt, to: null },
        ]);
        break;
      case 'MemberUnenrolled': {
        const open = periods.get(event.data.memberId)?.find((period) => period.to === null);
        if (open) open.to = event.data.unenrolledAt;
        break;
      }
      default:
        break;
    }
  }
  if (!exists) return null;
  // Attendance lives in one stream per member and round; the course id is in every event's data.
  const rows = await sql.query<{
    stream_id: string;
    type: string;
    schema_version: number;
    data: unknown;
    created_at: Date;
    position: string;
  }>(
    `SELECT stream_id, type, schema_version, data, created_at, position::text AS position FROM es.events
      WHERE type IN ('AttendanceScanned', 'AttendanceVoided') AND data->>'courseId' = $1 AND created_at <= $2
      ORDER BY position`,
    [courseId, asOf.toISOString()],
  );
  const present = new Map<string, Set<string>>(); // round -> members
  for (const row of rows) {
    const event = decodeAttendanceEvent({
      streamId: row.stream_id,
      streamRevision: 0,
      position: Number(row.position),
      type: row.type,
      schemaVersion: row.schema_version,
      data: row.data,
      metadata: {},
      createdAt: new Date(row.created_at).toISOString(),
    } as StoredEvent);
    if (!event || event.type === 'ScanRefused') continue;
    const members = present.get(event.data.roundId) ?? new Set<string>();
    if (event.type === 'AttendanceScanned') members.add(event.data.memberId);
    else members.delete(event.data.memberId);
    present.set(event.data.roundId, members);
  }
  const expectedAt = (start: string) =>
    [...periods]
      .filter(([, spans]) =>
        spans.some(
          ({ from, to }) =>
            Date.parse(from) <= Date.parse(start) && (to === null || Date.parse(to) > Date.parse(start)),
        ),
      )
      .map(([member]) => member);
  const perRound = [...rounds].map(([roundId, round]) => {
    const here = present.get(roundId) ?? new Set<string>();
    const ended = Date.parse(round.end) < asOf.getTime();
    return {
      _id: roundId,
      roundStartTime: round.start,
      roundEndTime: round.end,
      attended: here.size,
      absent: ended ? expectedAt(round.start).filter((member) => !here.has(member)).length : 0,
    };
  });
  const participants = new Set(perRound.flatMap((round) => [...(present.get(round._id) ?? [])]));
  return {
    // Enrolled now: an enrolment period still open.
    enrolled: [...periods.values()].filter((spans) => spans.some((span) => span.to === null)).length,
    participate: participants.size,
    totalAttend: perRound.reduce((sum, round) => sum + round.attended, 0),
    totalAbsent: perRound.reduce((sum, round) => sum + round.absent, 0),
    rounds: perRound.sort((a, b) => a.roundStartTime.localeCompare(b.roundStartTime)),
  };
}
