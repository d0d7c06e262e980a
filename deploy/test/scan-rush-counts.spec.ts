import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * A rush at the door, through the whole portal to the course's counts: the projector moves a
 * course's counts by the changes of the members each batch touched (counts.ts), so scans and
 * voids arriving at once, in batches of any size, must leave exactly the counts worked out here.
 *
 * 64 members, 48 enrolled and 16 walking in, scanned at once in the open round; then at once 32 of
 * them (members 0 to 31) uploaded late from a scanner that was offline in the round held before
 * (rounds of a course do not overlap), and 8 (members 56 to 63, walk-ins) voided in the open
 * round. Standing: the open round 56, the earlier 32; the course 56 participants (members 56 to
 * 63 have nothing left) and 88 attendances.
 */
describe.each(testDatabases())('a rush of scans and voids counted on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());

  const { call, partner, approvedMember, enrolledSince, courseWithRounds } = portalCalls(() => portal);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  /** Member n, registered and approved (names take no digits). */
  const approved = async (n: number) =>
    (await approvedMember(`Rush Member ${letters[n % 26]}${letters[Math.floor(n / 26)]}`)).id;

  // 64 members registered and approved one after another, then the rushes: 26 to 30 s on a slow
  // two-core machine beside the rest of the suite, past the default 30 s once.
  it('counts 64 scans at once, then 32 scans and 8 voids at once, exactly', { timeout: 90_000 }, async () => {
    const {
      id: course,
      rounds: [open, held],
    } = await courseWithRounds(
      partner(),
      [
        [-hour, hour],
        [-3 * hour, -2 * hour],
      ],
      'Rush',
    );
    const members: string[] = [];
    for (let n = 0; n < 64; n++) members.push(await approved(n));
    for (const member of members.slice(0, 48)) await enrolledSince(course, member, iso(-5 * hour));

    const scan = (round: string, member: string, deviceTime?: string) =>
      call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: member, deviceTime });
    const first = await Promise.all(members.map((member) => scan(open!, member)));
    expect(first.map((answer) => answer.statusCode)).toEqual(members.map(() => 200));
    expect(first.filter((answer) => answer.json().walkIn === true)).toHaveLength(16);

    const second = await Promise.all([
      ...members.slice(0, 32).map((member) => scan(held!, member, iso(-2.5 * hour))),
      ...members
        .slice(56)
        .map((member) =>
          call('POST', `/api/admin/rounds/${open}/attendance/${member}/void`, portal.adminToken, { reason: 'rush' }),
        ),
    ]);
    expect(second.filter((answer) => answer.statusCode === 200)).toHaveLength(40);

    const details = (await call('GET', `/api/admin/courses/${course}`, partner())).json().course;
    expect(details).toMatchObject({ participate: 56, totalAttend: 88 });
    const attended = Object.fromEntries(
      details.rounds.map((round: { _id: string; attended: number }) => [round._id, round.attended]),
    );
    expect(attended).toEqual({ [open!]: 56, [held!]: 32 });
    // The log says the same (the counts worked out from the events themselves).
    const fromLog = (await call('GET', `/api/admin/courses/${course}/counts`, portal.adminToken)).json();
    expect(fromLog.counts).toMatchObject({ participate: 56, totalAttend: 88 });
  });
});
