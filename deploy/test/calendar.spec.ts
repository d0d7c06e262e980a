import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { loggableUrl } from '@portal/platform/http/logged-request';
import { readFeed } from '../src/testing/calendar-reader.ts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

describe.each(testDatabases())('calendar feeds on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, approvedMember } = portalCalls(() => portal);
  /**
   * A calendar app: no session, no cookie, only the address (after a signed-in read, which waits
   * until the read models hold what the test just did).
   */
  const fetchFeed = async (path: string, language = 'en') => {
    await call('GET', '/api/calendar', portal.adminToken);
    return portal.app.inject({
      method: 'GET',
      url: path,
      headers: { 'accept-language': language, host: 'portal.example' },
    });
  };
  const linkOf = async (token: string) => (await call('GET', '/api/calendar', token)).json();
  const issue = (token: string) => call('POST', '/api/calendar/feed', token);

  async function approvedPartner() {
    const person = samplePartner();
    const id = (await call('POST', '/api/partners/register', '', person)).json()._id as string;
    await call('PUT', `/api/admin/registration/${id}/status`, portal.adminToken, { status: 'approved' });
    const signIn = await call('POST', '/api/login', '', { username: person.username, password: person.password });
    return { id, token: signIn.json().partner.token as string, person };
  }

  it('lists the rounds of the courses a person takes or runs, moved and cancelled ones as calendar apps need them', async () => {
    const partner = await approvedPartner();
    const member = await approvedMember('Cal Member');
    const bystander = await approvedMember('Other Member');

    expect(await linkOf(member.token)).toMatchObject({ success: true, path: null, issuedAt: null });
    const issued = await issue(member.token);
    expect(issued.statusCode).toBe(200);
    expect(issued.json()).toMatchObject({
      success: true,
      message: 'Your calendar link is ready. Any earlier link no longer works.',
    });
    const { path } = await linkOf(member.token);
    expect(path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{32}\.ics$/);

    const course = (
      await call('POST', '/api/admin/createcourse', partner.token, {
        courseTopic: 'Pottery',
        courseDescription: 'Clay and wheel',
        maxPeople: 0,
        status: 'public',
      })
    ).json()._id as string;
    const schedule = async (from: number, to: number) =>
      (
        await call('POST', `/api/admin/courses/${course}/rounds`, partner.token, {
          roundStartTime: at(from),
          roundEndTime: at(to),
        })
      ).json().round._id as string;
    const first = await schedule(24 * hour, 26 * hour);
    const moved = await schedule(48 * hour, 50 * hour);
    const cancelled = await schedule(72 * hour, 74 * hour);
    expect((await call('POST', `/api/courses/${course}/enroll`, member.token, {})).statusCode).toBe(200);
    const movedTo = { roundStartTime: at(96 * hour), roundEndTime: at(99 * hour) };
    expect((await call('PUT', `/api/admin/courses/${course}/rounds/${moved}`, partner.token, movedTo)).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/api/admin/courses/${course}/rounds/${cancelled}`, partner.token)).statusCode).toBe(
      200,
    );

    const answer = await fetchFeed(path);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const feed = readFeed(answer.body);
    expect(feed.name).toBe('Course portal');
    // In time order: the first round, the cancelled one (still at its time), the moved one.
    expect(feed.events.map((event) => [event.uid, event.summary, event.status, event.sequence])).toEqual([
      [`round-${first}@course-portal`, 'Pottery · Round 1', 'CONFIRMED', 0],
      [`round-${cancelled}@course-portal`, 'Cancelled: Pottery', 'CANCELLED', 1],
      [`round-${moved}@course-portal`, 'Pottery · Round 2', 'CONFIRMED', 1],
    ]);
    const movedEvent = feed.events[2]!;
    expect([movedEvent.start, movedEvent.end]).toEqual([
      new Date(movedTo.roundStartTime).toISOString().replace(/\.\d+Z$/, '.000Z'),
      new Date(movedTo.roundEndTime).toISOString().replace(/\.\d+Z$/, '.000Z'),
    ]);
    // The place: the partner's registered shop, with its position.
    expect(movedEvent.location).toBe(
      `${partner.person.companyName}\n99 Rama IV Road, ลุมพินี, ปทุมวัน, กรุงเทพมหานคร, 10330`,
    );
    expect(movedEvent.geo).toEqual([13.7307, 100.5418]);
    // A member's link opens their pass; the course's description comes along.
    expect(movedEvent.url).toBe('http://portal.example/e-market#member-pass');
    expect(movedEvent.description).toContain('Clay and wheel');

    // In Thai when the link asks for it.
    const thai = readFeed((await fetchFeed(`${path}?lang=th`)).body);
    expect(thai.events.map((event) => event.summary)).toEqual([
      'Pottery · รอบที่ 1',
      'ยกเลิกแล้ว: Pottery',
      'Pottery · รอบที่ 2',
    ]);

    // The partner's own feed holds the same rounds, each linking to its round page.
    await issue(partner.token);
    const partners = readFeed((await fetchFeed((await linkOf(partner.token)).path)).body);
    expect(partners.events.map((event) => event.url)).toEqual(
      [first, cancelled, moved].map((round) => `http://portal.example/courses/${course}/rounds/${round}`),
    );

    // Nobody else's feed shows them, until the partner makes them an assistant: then they run it.
    await issue(bystander.token);
    const bystanders = (await linkOf(bystander.token)).path;
    expect(readFeed((await fetchFeed(bystanders)).body).events).toEqual([]);
    const added = await call('POST', `/api/admin/courses/${course}/assistants`, partner.token, {
      username: bystander.person.username,
    });
    expect(added.statusCode).toBe(201);
    expect(readFeed((await fetchFeed(bystanders)).body).events.map((event) => event.url)).toEqual(
      [first, cancelled, moved].map((round) => `http://portal.example/courses/${course}/rounds/${round}`),
    );

    // A renamed course is renamed in every feed.
    await call('PUT', `/api/admin/updatecourses/${course}`, partner.token, {
      courseTopic: 'Pottery II',
      courseDescription: 'Clay and wheel',
    });
    expect(readFeed((await fetchFeed(path)).body).events[0]!.summary).toBe('Pottery II · Round 1');

    // Leaving the course takes its rounds out of the member's feed.
    await call('DELETE', `/api/courses/${course}/enroll`, member.token);
    expect(readFeed((await fetchFeed(path)).body).events).toEqual([]);
  });

  it('stops answering an address once it is reset, and answers 404 alike to anything that is not a live address', async () => {
    const member = await approvedMember('Reset Member');
    await issue(member.token);
    const old = (await linkOf(member.token)).path as string;
    expect((await fetchFeed(old)).statusCode).toBe(200);
    await issue(member.token);
    const fresh = (await linkOf(member.token)).path as string;
    expect(fresh).not.toBe(old);
    expect((await fetchFeed(fresh)).statusCode).toBe(200);

    const refused = await fetchFeed(old);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toBe('There is no such calendar. The link may have been reset.');
    expect((await fetchFeed(old, 'th')).json().message).toBe('ไม่พบปฏิทินนี้ ลิงก์อาจถูกรีเซ็ตแล้ว');
    const [feedId, signature] = fresh.slice('/api/calendar/'.length, -'.ics'.length).split('.') as [string, string];
    const forged = [
      `/api/calendar/${feedId}.${'A'.repeat(32)}.ics`,
      `/api/calendar/${feedId}.ics`,
      `/api/calendar/${feedId}.${signature}`,
      `/api/calendar/${'x'.repeat(22)}.${signature}.ics`,
      `/api/calendar/${'z'.repeat(60)}.ics`,
    ];
    for (const url of forged) expect((await fetchFeed(url)).statusCode, url).toBe(404);
    // Text no field may hold, and an address too long, are refused before anything is read.
    for (const url of ['/api/calendar/%00.ics', `/api/calendar/${'a'.repeat(200)}.ics`, `${fresh}?lang=de`]) {
      const status = (await fetchFeed(url)).statusCode;
      expect(status, url).toBeGreaterThanOrEqual(400);
      expect(status, url).toBeLessThan(500);
    }
    // A replayed request (the same idempotency key) issues nothing new.
    const replay = (key: string) =>
      portal.app.inject({
        method: 'POST',
        url: '/api/calendar/feed',
        headers: { authorization: `Bearer ${member.token}`, 'idempotency-key': key },
      });
    const once = await replay('calendar-reset-1');
    const twice = await replay('calendar-reset-1');
    expect(twice.json().position).toBe(once.json().position);
  });

  it('answers 404 for the feed of an account whose data was erased, and asks for a session for the link', async () => {
    const member = await approvedMember('Erased Member');
    await issue(member.token);
    const { path } = await linkOf(member.token);
    expect((await fetchFeed(path)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/members/${member.id}/personal-data`, portal.adminToken)).statusCode).toBe(
      200,
    );
    expect((await fetchFeed(path)).statusCode).toBe(404);
    expect((await portal.app.inject({ method: 'GET', url: '/api/calendar' })).statusCode).toBe(401);
    expect((await portal.app.inject({ method: 'POST', url: '/api/calendar/feed' })).statusCode).toBe(401);
  });

  it('answers each of 64 resets at once, and the feed that stands is the last one issued', async () => {
    const member = await approvedMember('Rush Member');
    const answers = await Promise.all(Array.from({ length: 64 }, () => issue(member.token)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(64).fill(200));
    const issued = await portal.store.readStream(`calendar-${member.id}`);
    expect(issued).toHaveLength(64);
    const last = (issued.at(-1)!.data as { feedId: string }).feedId;
    const { path } = await linkOf(member.token);
    expect(path.slice('/api/calendar/'.length).split('.')[0]).toBe(last);
    expect((await fetchFeed(path)).statusCode).toBe(200);
  });

  it('keeps the secret part of a feed address out of the logs', () => {
    expect(loggableUrl('/api/calendar/abc.def.ics?lang=th')).toBe('/api/calendar/[feed]?lang=th');
    expect(loggableUrl('/api/calendar')).toBe('/api/calendar');
    expect(loggableUrl('/api/courses/1')).toBe('/api/courses/1');
  });
});
