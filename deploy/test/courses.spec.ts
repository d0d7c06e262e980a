import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/** Courses through the whole portal: commands, the projector's read models, and the queries. */
describe.each(testDatabases())('courses through the portal on $name', (database) => {
  let portal: TestPortal;
  let app: FastifyInstance;
  beforeAll(async () => {
    portal = await openTestPortal(database);
    app = portal.app;
  });
  afterAll(() => portal.close());

  const token = (sub: string, role: 'partner' | 'member' | 'admin') =>
    app.jwt.sign({ sub, role, username: sub, iatMs: Date.now() });
  const partner = () => token('cccccccccccccccccccccc01', 'partner');
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { authorization: `Bearer ${auth}` } });
  let lastPosition = 0;
  const command = async (method: 'POST' | 'PUT' | 'DELETE', url: string, auth: string, payload?: object) => {
    const answer = await call(method, url, auth, payload);
    expect(answer.statusCode).toBeLessThan(300);
    lastPosition = answer.json().position;
    return answer.json();
  };
  const hour = 3600_000;
  const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

  it('lists, searches, sorts and pages courses, and shows a course with its rounds, active ones marked', async () => {
    const tag = `q${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (const topic of ['Banana bread', 'apple pie', 'Cherry jam']) {
      const created = await command('POST', '/api/admin/createcourse', partner(), {
        courseTopic: `${topic} ${tag}`,
        courseDescription: 'Baking',
        maxPeople: 0,
        status: 'public',
      });
      ids.push(created._id);
    }
    await command('POST', `/api/admin/courses/${ids[0]}/rounds`, partner(), {
      roundStartTime: iso(24 * hour),
      roundEndTime: iso(26 * hour),
    });
    await command('POST', `/api/admin/courses/${ids[0]}/rounds`, partner(), {
      roundStartTime: iso(-hour),
      roundEndTime: iso(hour),
    });
    await command('POST', `/api/courses/${ids[0]}/enroll`, token('dddddddddddddddddddddd01', 'member'));

    const list = await call(
      'GET',
      `/api/admin/courses?minPosition=${lastPosition}&search=${tag.toUpperCase()}&sort=topic&order=asc&page=1&pageSize=2`,
      partner(),
    );
    expect(list.json()).toMatchObject({ success: true, total: 3, pages: 2 });
    expect(list.json().courses.map((c: { courseTopic: string }) => c.courseTopic)).toEqual([
      `apple pie ${tag}`,
      `Banana bread ${tag}`,
    ]);

    const details = await call('GET', `/api/admin/courses/${ids[0]}`, token('eeeeeeeeeeeeeeeeeeeeee01', 'admin'));
    const course = details.json().course;
    expect(course).toMatchObject({
      _id: ids[0],
      courseTopic: `Banana bread ${tag}`,
      status: 'public',
      enrolled: 1,
      participate: 0,
    });
    expect(Math.abs(Date.parse(details.json().serverTime) - Date.now())).toBeLessThan(60_000);
    expect(course.rounds.map((r: { roundNumber: number; active: boolean }) => [r.roundNumber, r.active])).toEqual([
      [1, true],
      [2, false],
    ]);

    expect((await call('GET', '/api/admin/courses', token('dddddddddddddddddddddd01', 'member'))).statusCode).toBe(403);
    await command('DELETE', `/api/admin/deletecourse/${ids[1]}`, partner());
    const after = await call('GET', `/api/admin/courses?minPosition=${lastPosition}&search=${tag}`, partner());
    expect(after.json().courses).toHaveLength(2);
    expect((await call('GET', `/api/admin/courses/${ids[1]}`, partner())).statusCode).toBe(404);
  });

  it('shows members the public catalogue with their own enrolments, places left and the next round', async () => {
    const tag = `m${Date.now().toString(36)}`;
    const member = token('dddddddddddddddddddddd02', 'member');
    const create = async (topic: string, status: string, maxPeople: number) =>
      (
        await command('POST', '/api/admin/createcourse', partner(), {
          courseTopic: `${topic} ${tag}`,
          courseDescription: 'Weaving',
          maxPeople,
          status,
        })
      )._id as string;
    const silk = await create('Silk', 'public', 2);
    const cotton = await create('Cotton', 'public', 0);
    const hidden = await create('Hidden', 'private', 0);
    await command('POST', `/api/admin/courses/${silk}/rounds`, partner(), {
      roundStartTime: iso(-3 * hour),
      roundEndTime: iso(-2 * hour),
    });
    await command('POST', `/api/admin/courses/${silk}/rounds`, partner(), {
      roundStartTime: iso(48 * hour),
      roundEndTime: iso(50 * hour),
    });
    await command('POST', `/api/courses/${silk}/enroll`, member);
    // Enrolled, then the course went private: still among the member's own courses.
    await command('POST', `/api/courses/${cotton}/enroll`, member);
    await command('PUT', `/api/admin/course/${cotton}/status`, partner(), { status: 'private' });

    const catalogue = await call('GET', `/api/courses?minPosition=${lastPosition}&search=${tag}`, member);
    expect(catalogue.statusCode).toBe(200);
    expect(catalogue.json()).toMatchObject({ total: 1, page: 1, pages: 1 });
    expect(catalogue.json().courses[0]).toMatchObject({
      _id: silk,
      enrolledByMe: true,
      enrolled: 1,
      seatsLeft: 1,
      roundCount: 2,
    });
    expect(Date.parse(catalogue.json().courses[0].nextRound.roundStartTime)).toBeGreaterThan(Date.now() + 47 * hour);
    expect(catalogue.json().courses[0]).not.toHaveProperty('creator');

    const mine = await call('GET', `/api/courses?mine=true&search=${tag}`, member);
    expect(
      mine
        .json()
        .courses.map((c: { _id: string }) => c._id)
        .sort(),
    ).toEqual([silk, cotton].sort());
    expect(mine.json().courses.find((c: { _id: string }) => c._id === cotton)).toMatchObject({
      status: 'private',
      seatsLeft: null,
      nextRound: null,
    });
    const stranger = await call(
      'GET',
      `/api/courses?mine=true&search=${tag}`,
      token('dddddddddddddddddddddd03', 'member'),
    );
    expect(stranger.json().courses).toEqual([]);
    expect((await call('GET', `/api/courses?search=${tag}`, '')).statusCode).toBe(401);
    expect(hidden).toBeTruthy();
  });
});
