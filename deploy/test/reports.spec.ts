import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * The member's dashboard and the admins' overview on a small seeded data set whose every figure
 * is worked out by hand below: two members, three courses, ended and future rounds, a late
 * upload, a duplicate and a void.
 */
describe.each(testDatabases())('reports through the portal on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember, courseWithRounds } = portalCalls(() => portal);

  const course = (topic: string, rounds: [number, number][], by = partner()) => courseWithRounds(by, rounds, topic);

  it('gives a member their courses, progress, attendance rate and next rounds, from real scans only', async () => {
    // Course A: two ended rounds, two to come. B: one ended round. C: one round to come.
    const a = await course('Aikido', [
      [-5 * hour, -4 * hour],
      [-3 * hour, -2 * hour],
      [2 * hour, 3 * hour],
      [24 * hour, 25 * hour],
    ]);
    const b = await course('Baking', [[-6 * hour, -5 * hour]]);
    const c = await course('Calligraphy', [[5 * hour, 6 * hour]]);
    const mia = await approvedMember('Mia Member');
    const noa = await approvedMember('Noa Nobody');
    for (const id of [a.id, b.id, c.id]) await call('POST', `/api/courses/${id}/enroll`, mia.token);
    await call('POST', `/api/courses/${a.id}/enroll`, noa.token);
    // Mia was scanned offline in A's first round and in B's round; the scanners uploaded later.
    const scan = (round: string, deviceTime: string) =>
      call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: mia.id, deviceTime });
    expect((await scan(a.rounds[0]!, iso(-4.5 * hour))).statusCode).toBe(200);
    expect((await scan(b.rounds[0]!, iso(-5.5 * hour))).statusCode).toBe(200);
    expect((await scan(b.rounds[0]!, iso(-5.4 * hour))).statusCode).toBe(409); // a duplicate, refused

    // Mia and Noa enrolled just now, after A1, A2 and B1 had started: by the count rule those
    // rounds were never theirs, so a round they missed there is no absence. Mia's A1 and B1 scans
    // still count: a scan is attendance whenever the member was enrolled.
    const report = (await call('GET', `/api/admin/courses/${mia.id}/report`, mia.token)).json();
    expect(report.success).toBe(true);
    const byTopic = Object.fromEntries(report.course.map((item: { courseTopic: string }) => [item.courseTopic, item]));
    expect(byTopic.Aikido).toMatchObject({
      _id: a.id,
      totalLessons: 3, // A1 (attended), A3 and A4 (to come); not A2
      completedLessons: 1,
      heldLessons: 1,
      progress: 33,
      status: 'In Progress',
      instructor: 'cccccccccccccccccccccc09',
      upcomingRound: { _id: a.rounds[2], roundNumber: 3 },
    });
    expect(byTopic.Aikido.userAttendance.map((e: { status: string }) => e.status)).toEqual(['Attended']);
    expect(byTopic.Baking).toMatchObject({ progress: 100, status: 'Completed', upcomingRound: null });
    expect(byTopic.Calligraphy).toMatchObject({ progress: 0, status: 'Upcoming', userAttendance: [] });
    expect(report.summary).toEqual({
      enrolledCourses: 3,
      upcomingRounds: 3,
      attendanceRate: 100, // A1 and B1 attended; A2 was not hers
      completedCourses: 1,
      totalCourses: 3,
    });
    expect(report.upcoming.map((round: { _id: string }) => round._id)).toEqual([a.rounds[2], c.rounds[0], a.rounds[3]]);

    // A voided scan is no scan: Baking falls back to nothing attended, and B1, which started before
    // she enrolled, is not an absence either.
    await call('POST', `/api/admin/rounds/${b.rounds[0]}/attendance/${mia.id}/void`, portal.adminToken, {
      reason: 'wrong person',
    });
    const after = (await call('GET', `/api/admin/courses/${mia.id}/report`, portal.adminToken)).json();
    expect(after.course.find((item: { _id: string }) => item._id === b.id)).toMatchObject({
      progress: 0,
      status: 'Upcoming',
      totalLessons: 0,
      userAttendance: [],
    });
    expect(after.summary).toMatchObject({ attendanceRate: 100, completedCourses: 0 });

    // Noa's own dashboard: enrolled in A after its held rounds, so no round held was hers yet.
    const noas = (await call('GET', `/api/admin/courses/${noa.id}/report`, noa.token)).json();
    expect(noas.summary).toEqual({
      enrolledCourses: 1,
      upcomingRounds: 2,
      attendanceRate: null,
      completedCourses: 0,
      totalCourses: 1,
    });

    // Only oneself, or an admin; nobody without a session.
    expect((await call('GET', `/api/admin/courses/${mia.id}/report`, noa.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/courses/${mia.id}/report`, partner())).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/courses/${mia.id}/report`, '')).statusCode).toBe(401);
    expect(
      (await call('GET', '/api/admin/courses/aaaaaaaaaaaaaaaaaaaaaaaa/report', portal.adminToken)).statusCode,
    ).toBe(404);

    // The organisation's overview, counted in Bangkok's days.
    const overview = (await call('GET', '/api/admin/overview?days=7&tz=Asia/Bangkok', portal.adminToken)).json();
    expect(overview.members).toEqual(expect.arrayContaining([{ role: 'member', status: 'approved', count: 2 }]));
    expect(overview.courses).toEqual({ public: 3, private: 0, rounds: 3 }); // A1, A2 and B1 started this week
    expect(overview.scansPerDay).toHaveLength(7);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok' }).format(new Date());
    expect(overview.scansPerDay.at(-1)).toEqual({ day: today, accepted: 2, refused: 1, voided: 1 });
    expect(overview.scansPerDay.slice(0, -1).every((d: { accepted: number }) => d.accepted === 0)).toBe(true);
    // A: Mia in round 1; nobody was enrolled when A1 or A2 started, so nobody is absent. B: Mia's
    // scan voided, nobody expected: nothing to rate, so B is not listed.
    expect(overview.courseRates).toEqual([{ _id: a.id, courseTopic: 'Aikido', attended: 1, absent: 0, rate: 100 }]);
    expect(overview.busiestRounds).toEqual([
      expect.objectContaining({ _id: a.rounds[0], courseTopic: 'Aikido', attended: 1 }),
    ]);

    const bad = await call('GET', '/api/admin/overview?days=0&tz=Mars/Olympus', portal.adminToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      days: 'The number of days must be from 1 to 366.',
      tz: 'This time zone is not known.',
    });
    expect((await call('GET', '/api/admin/overview', mia.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/overview', partner())).statusCode).toBe(403);
  });

  it('gives a partner their own courses, the rounds they are about to run and the rate of those held', async () => {
    const pat = partner('dddddddddddddddddddddd01');
    // Xylophone: ended, open now, tomorrow, in ten days. Yodel: in two days. Zumba is someone else's.
    const x = await course(
      'Xylophone',
      [
        [-3 * hour, -2 * hour],
        [-0.5 * hour, 0.5 * hour],
        [24 * hour, 25 * hour],
        [240 * hour, 241 * hour],
      ],
      pat,
    );
    const y = await course('Yodel', [[48 * hour, 49 * hour]], pat);
    await course('Zumba', [[-0.5 * hour, 0.5 * hour]], partner('dddddddddddddddddddddd02'));
    const ria = await approvedMember('Ria Regular');
    const sam = await approvedMember('Sam Seldom');
    for (const id of [x.id, y.id]) await call('POST', `/api/courses/${id}/enroll`, ria.token);
    await call('POST', `/api/courses/${x.id}/enroll`, sam.token);
    // Ria came to the round that ended (uploaded late); Sam is in the one open now.
    const scan = (round: string, userId: string, deviceTime?: string) =>
      call('PUT', `/api/admin/updateround/${round}`, pat, { userId, ...(deviceTime ? { deviceTime } : {}) });
    expect((await scan(x.rounds[0]!, ria.id, iso(-2.5 * hour))).statusCode).toBe(200);
    expect((await scan(x.rounds[1]!, sam.id)).statusCode).toBe(200);

    const home = (await call('GET', '/api/partner/home', pat)).json();
    expect(home.success).toBe(true);
    // Held so far: Xylophone's first round, Ria there (uploaded late). Sam enrolled after it
    // started, so he was not expected there and is not absent. The open round is not held yet.
    expect(home.summary).toEqual({ courses: 2, members: 2, upcomingRounds: 3, attendanceRate: 100 });
    expect(home.rounds).toEqual([
      expect.objectContaining({
        _id: x.rounds[1],
        courseTopic: 'Xylophone',
        roundNumber: 2,
        active: true,
        attended: 1,
      }),
      expect.objectContaining({ _id: x.rounds[2], roundNumber: 3, active: false, attended: 0, enrolled: 2 }),
      expect.objectContaining({ _id: y.rounds[0], courseId: y.id, roundNumber: 1, active: false, enrolled: 1 }),
    ]);
    expect(home.courses.map((item: { _id: string }) => item._id)).toEqual([y.id, x.id]);
    expect(home.courses[1]).toMatchObject({ enrolled: 2, participate: 2, totalAttend: 2, totalAbsent: 0 });

    // Someone with no courses yet: nothing held, no rate rather than 0 %.
    const fresh = (await call('GET', '/api/partner/home', partner('dddddddddddddddddddddd03'))).json();
    expect(fresh.summary).toEqual({ courses: 0, members: 0, upcomingRounds: 0, attendanceRate: null });
    expect(fresh).toMatchObject({ rounds: [], courses: [] });
    expect((await call('GET', '/api/partner/home', ria.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/partner/home', '')).statusCode).toBe(401);
  });
});
