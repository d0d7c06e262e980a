import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/**
 * The one count rule, on a small story worked out by hand. A member is expected in a round when
 * they were enrolled at its start; absent = expected, round ended, no accepted (not voided) scan.
 *
 * Rounds: Old (ended hours before anyone enrolled), A (held during the test), Now (open).
 * Ann and Ben enrol before A starts. During A: Cat enrols and is scanned; Ann is scanned; Dan
 * walks in and is scanned, and that scan is voided. After A: Ben leaves, Eve enrols.
 *
 * Old: attended 0, absent 0 (nobody was enrolled when it started).
 * A:   attended 2 (Ann, Cat); expected Ann and Ben; absent 1 (Ben; leaving later does not change it).
 *      Cat enrolled during A and Dan walked in: never absent.
 * Now: not ended, absent 0.
 * Course: participate 2, totalAttend 2, totalAbsent 1. Partner home rate 2 / (2 + 1) = 67 %.
 * Dashboards: Cat attended A of the rounds that are hers (A, Now): 1 of 2, rate 100 %; Ben missed
 * A: rate 0 %; Eve has no round yet (all three started before she enrolled): rate none, 0 of 0.
 * Before the rule, absence counted everyone enrolled now in every ended round: Old 4, A 2.
 */
describe.each(testDatabases())('the count rule on $name', (database) => {
  let portal: TestPortal;
  const { call, partner, approvedMember } = portalCalls(() => portal);
  const teacher = () => partner('cccccccccccccccccccccc21');
  let courseId: string;
  const round: Record<'old' | 'a' | 'now', string> = { old: '', a: '', now: '' };
  let people: Record<'ann' | 'ben' | 'cat' | 'dan' | 'eve', { id: string; token: string }>;

  beforeAll(async () => {
    portal = await openTestPortal(database);
    people = {
      ann: await approvedMember('Ann Count'),
      ben: await approvedMember('Ben Count'),
      cat: await approvedMember('Cat Count'),
      dan: await approvedMember('Dan Count'),
      eve: await approvedMember('Eve Count'),
    };
    const t0 = Date.now();
    const iso = (ms: number) => new Date(t0 + ms).toISOString();
    courseId = (
      await call('POST', '/api/admin/createcourse', teacher(), {
        courseTopic: 'Counting',
        courseDescription: 'By hand',
        maxPeople: 0,
        status: 'public',
      })
    ).json()._id;
    const schedule = async (from: number, to: number) =>
      (
        await call('POST', `/api/admin/courses/${courseId}/rounds`, teacher(), {
          roundStartTime: iso(from),
          roundEndTime: iso(to),
        })
      ).json().round._id as string;
    round.old = await schedule(-3 * hour, -2 * hour);
    round.a = await schedule(3000, 6000);
    round.now = await schedule(6000, hour);
    const enrol = (who: { token: string }) => call('POST', `/api/courses/${courseId}/enroll`, who.token);
    const scan = (who: { id: string }) =>
      call('PUT', `/api/admin/updateround/${round.a}`, teacher(), { userId: who.id, deviceId: 'door' });
    await enrol(people.ann);
    await enrol(people.ben);
    expect(Date.now()).toBeLessThan(t0 + 3000);

    await sleepUntil(t0 + 3100);
    await enrol(people.cat);
    for (const who of [people.ann, people.cat, people.dan]) expect((await scan(who)).json().outcome).toBe('accepted');
    const voided = await call(
      'POST',
      `/api/admin/rounds/${round.a}/attendance/${people.dan.id}/void`,
      portal.adminToken,
      {
        reason: 'scanned by mistake',
      },
    );
    expect(voided.statusCode).toBe(200);
    expect(Date.now()).toBeLessThan(t0 + 6000);

    await sleepUntil(t0 + 6100);
    expect((await call('DELETE', `/api/courses/${courseId}/enroll`, people.ben.token)).statusCode).toBe(200);
    await enrol(people.eve);
  }, 60_000);
  afterAll(() => portal.close());

  it('counts each round and the course by the rule on the course details and the round pages', async () => {
    const { course } = (await call('GET', `/api/admin/courses/${courseId}`, teacher())).json();
    expect(course).toMatchObject({ participate: 2, totalAttend: 2, totalAbsent: 1 });
    const byId = Object.fromEntries(
      course.rounds.map((r: { _id: string; attended: number; absent: number }) => [r._id, [r.attended, r.absent]]),
    );
    expect(byId).toEqual({ [round.old]: [0, 0], [round.a]: [2, 1], [round.now]: [0, 0] });

    const a = (await call('GET', `/api/admin/rounds/${round.a}`, teacher())).json().round;
    expect(a).toMatchObject({ attended: 2, absent: 1, missing: 1, expected: 2 });
    const old = (await call('GET', `/api/admin/rounds/${round.old}`, teacher())).json().round;
    expect(old).toMatchObject({ attended: 0, absent: 0, missing: 0, expected: 0 });
  });

  it('answers the same from the log itself ("as of" now) and on the course list', async () => {
    const asOf = encodeURIComponent(new Date().toISOString());
    const { counts } = (
      await call('GET', `/api/admin/courses/${courseId}/counts?asOf=${asOf}`, portal.adminToken)
    ).json();
    expect(counts).toMatchObject({ participate: 2, totalAttend: 2, totalAbsent: 1 });
    expect(counts.rounds.map((r: { attended: number; absent: number }) => [r.attended, r.absent])).toEqual([
      [0, 0],
      [2, 1],
      [0, 0],
    ]);
    const list = (await call('GET', '/api/admin/courses?search=Counting', teacher())).json();
    expect(list.courses.find((c: { _id: string }) => c._id === courseId)).toMatchObject({ totalAbsent: 1 });
  });

  it('gives each member figures over the rounds that are theirs, and the partner the same rate', async () => {
    const dashboard = async (who: { id: string; token: string }) =>
      (await call('GET', `/api/admin/courses/${who.id}/report`, who.token)).json();
    const cat = await dashboard(people.cat);
    expect(cat.summary.attendanceRate).toBe(100);
    expect(cat.course[0]).toMatchObject({ completedLessons: 1, totalLessons: 2, progress: 50 });
    expect(cat.course[0].userAttendance.map((entry: { status: string }) => entry.status)).toEqual(['Attended']);
    const ben = await dashboard(people.ben);
    expect(ben.summary.attendanceRate).toBe(0);
    expect(ben.course[0].userAttendance.map((entry: { roundId: string; status: string }) => entry)).toEqual([
      expect.objectContaining({ roundId: round.a, status: 'Absent' }),
    ]);
    const eve = await dashboard(people.eve);
    expect(eve.summary.attendanceRate).toBeNull();
    expect(eve.course[0]).toMatchObject({ completedLessons: 0, totalLessons: 0, userAttendance: [] });
    const home = (await call('GET', '/api/partner/home', teacher())).json();
    expect(home.summary.attendanceRate).toBe(67);
  });
});
