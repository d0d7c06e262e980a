import { describe, expect, it } from 'vitest';
import {
  CertificateIssued,
  CertificateRevoked,
  CompletionRuleSet,
} from '@portal/contracts/certificates/certificate.events';
import {
  CourseCreated,
  CourseUpdated,
  MemberEnrolled,
  MemberUnenrolled,
  RoundCancelled,
  RoundScheduled,
} from '@portal/contracts/courses/course.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import type { StreamFold } from '@portal/platform/store/port';
import { certificateFold, completers, completionFold, courseToCertifyFold, lastRoundEnd } from './completion.ts';

const now = '2026-11-22T10:00:00.000Z';
const hourAt = (h: number) => `2026-11-0${h}T09:00:00.000Z`;
const hourEnd = (h: number) => `2026-11-0${h}T10:30:00.000Z`;

/** Given these events on a stream, the fold answers… */
function given<State>(fold: StreamFold<State>, events: { type: string; data: unknown; schemaVersion: number }[]) {
  return events.reduce(
    (state, event, i) =>
      fold.evolve(state, { ...event, streamId: 's', streamRevision: i, position: i + 1 } as unknown as StoredEvent),
    fold.initial(),
  );
}
const round = (n: number) =>
  RoundScheduled.create({ roundId: `r${n}`, roundStartTime: hourAt(n), roundEndTime: hourEnd(n), scheduledAt: now });

describe('deciding who completed a course', () => {
  const rounds = [1, 2, 3, 4, 5].map((n) => ({ roundId: `r${n}`, start: hourAt(n), end: hourEnd(n) }));
  const attendedBy: Record<string, string[]> = {
    ann: ['r1', 'r2', 'r3', 'r4'],
    ben: ['r1', 'r2', 'r3'],
    cat: ['r1', 'r2', 'r3', 'r4', 'r5'],
    eve: [],
  };
  const attended = (member: string, roundId: string) => attendedBy[member]?.includes(roundId) ?? false;

  it('given 80 %, when 4 of 5 held rounds were attended, then the member completes, with those rounds’ hours', () => {
    expect(completers(rounds, ['ann', 'ben', 'cat', 'eve'], 80, attended)).toEqual([
      { memberId: 'ann', attendedRounds: 4, heldRounds: 5, hours: 6 },
      { memberId: 'cat', attendedRounds: 5, heldRounds: 5, hours: 7.5 },
    ]);
  });

  it('given 60 %, 3 of 5 is enough; given 100 %, only all of them; a course without rounds completes nobody', () => {
    expect(completers(rounds, ['ben', 'eve'], 60, attended).map((c) => c.memberId)).toEqual(['ben']);
    expect(completers(rounds, ['ann', 'cat'], 100, attended).map((c) => c.memberId)).toEqual(['cat']);
    expect(completers([], ['cat'], 1, () => true)).toEqual([]);
  });

  it('counts at exactly the share (2 of 3 is 66.7 %, not 67 %) without rounding a member in', () => {
    const three = rounds.slice(0, 3);
    expect(completers(three, ['x'], 67, (_m, r) => r !== 'r3')).toEqual([]);
    expect(completers(three, ['x'], 66, (_m, r) => r !== 'r3').length).toBe(1);
  });
});

describe('the course as its certificates see it', () => {
  it('holds the rounds that stand and everyone ever enrolled, those who left included, once each', () => {
    const course = given(courseToCertifyFold, [
      CourseCreated.create({
        courseTopic: 'Old topic',
        courseDescription: 'x',
        maxPeople: 0,
        status: 'public',
        creator: 'p1',
        createdAt: now,
      }),
      CourseUpdated.create({ courseTopic: 'Yoga', courseDescription: 'x', maxPeople: 0, updatedAt: now }),
      round(1),
      round(2),
      round(3),
      RoundCancelled.create({ roundId: 'r3', cancelledAt: now }),
      MemberEnrolled.create({ memberId: 'ann', enrolledAt: now }),
      MemberUnenrolled.create({ memberId: 'ann', unenrolledAt: now }),
      MemberEnrolled.create({ memberId: 'ann', enrolledAt: now }),
      MemberEnrolled.create({ memberId: 'dan', enrolledAt: now, walkIn: true, enrolledBy: 'p1' }),
    ]);
    expect(course).toMatchObject({ status: 'active', creator: 'p1', topic: 'Yoga', members: ['ann', 'dan'] });
    expect(course.status === 'active' && course.rounds.map((r) => r.roundId)).toEqual(['r1', 'r2']);
    expect(course.status === 'active' && lastRoundEnd(course.rounds)).toBe(hourEnd(2));
    expect(lastRoundEnd([])).toBeNull();
  });

  it('takes the default rule (80 %) until the course sets its own; a certificate is issued once and revoked for good', () => {
    expect(given(completionFold, []).percent).toBe(80);
    expect(
      given(completionFold, [CompletionRuleSet.create({ courseId: 'c', percent: 60, setBy: 'p1', setAt: now })])
        .percent,
    ).toBe(60);
    const issued = CertificateIssued.create({
      certificateId: 'AAAAAAAAAAAAAAAAAAAAAA',
      courseId: 'c',
      memberId: 'ann',
      courseTopic: 'Yoga',
      issuerId: 'p1',
      attendedRounds: 4,
      heldRounds: 5,
      hours: 6,
      percent: 80,
      issuedAt: now,
    });
    const revoked = CertificateRevoked.create({
      certificateId: 'AAAAAAAAAAAAAAAAAAAAAA',
      reason: 'Forged',
      revokedBy: 'a1',
      revokedAt: now,
    });
    expect(given(certificateFold, [])).toEqual({ status: 'none' });
    expect(given(certificateFold, [issued])).toEqual({ status: 'issued', certificateId: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(given(certificateFold, [issued, revoked]).status).toBe('revoked');
  });
});
