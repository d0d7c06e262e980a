import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContactMessageReceived, contactStream } from '@portal/contracts/outreach/outreach.events';
import { seal } from '@portal/platform/privacy/personal-data';
import { testDatabases } from '@portal/platform/testing/databases';
import { multipartBody } from '@portal/platform/testing/multipart';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';
import { caughtUp } from '../src/testing/read-side.ts';

const hour = 3600_000;
const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\uD800b';

/**
 * What outsiders found: text that PostgreSQL cannot store stopped the read side for good (a NUL
 * in a sealed field), or answered 500 (a NUL or a lone surrogate anywhere else), and uploads
 * without a multipart boundary answered 500. Each is now a 400 naming the field in the caller's
 * language, nothing is appended, and the read side keeps going.
 */
describe.each(testDatabases())('hostile input on $name', (database) => {
  let portal: TestPortal;
  let courseId: string;
  let roundId: string;
  let member: { id: string; token: string };
  beforeAll(async () => {
    portal = await openTestPortal(database);
    member = await approvedMember('Hostile Input Member');
    const course = await courseWithRounds(portal.adminToken, [[-hour, hour]], 'Knife skills');
    [courseId, roundId] = [course.id, course.rounds[0]!];
  });
  afterAll(() => portal.close());
  const { call, approvedMember, courseWithRounds } = portalCalls(() => portal);
  const events = async () =>
    Number((await portal.db.query<{ n: string }>('SELECT count(*) AS n FROM es.events'))[0]!.n);

  it('refuses a NUL in the contact form field by field, in Thai, and appends nothing', async () => {
    const before = await events();
    const answer = await portal.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'accept-language': 'th' },
      payload: { name: NUL, email: 'x@example.com', message: 'hello there friend' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors).toEqual({ name: 'ข้อความมีอักขระที่ไม่สามารถใช้ได้ กรุณาลบออก' });
    expect(await events()).toBe(before);
    expect(await caughtUp(portal)).toMatchObject({ running: true, behind: 0 });
  });

  type Case = [method: 'POST' | 'PUT', url: () => string, body: () => object | undefined, field: string];
  const badText: Case[] = [
    ['POST', () => '/api/login', () => ({ username: NUL, password: 'password-123' }), 'username'],
    ['POST', () => '/api/login', () => ({ username: LONE_SURROGATE, password: 'password-123' }), 'username'],
    ['POST', () => '/api/admin/createcourse', () => ({ courseTopic: NUL, courseDescription: 'x' }), 'courseTopic'],
    [
      'POST',
      () => '/api/admin/createcourses',
      () => ({ courseTopic: 'x', courseDescription: LONE_SURROGATE }),
      'courseDescription',
    ],
    [
      'PUT',
      () => `/api/admin/updatecourses/${courseId}`,
      () => ({ courseTopic: LONE_SURROGATE, courseDescription: 'x' }),
      'courseTopic',
    ],
    [
      'PUT',
      () => `/api/admin/updatecourses/${courseId}`,
      () => ({ courseTopic: 'x', courseDescription: NUL }),
      'courseDescription',
    ],
    ['PUT', () => `/api/admin/updateround/${roundId}`, () => ({ userId: NUL }), 'userId'],
    [
      'PUT',
      () => `/api/admin/updateround/${roundId}`,
      () => ({ userId: member.id, deviceId: LONE_SURROGATE }),
      'deviceId',
    ],
    ['POST', () => '/api/emails', () => ({ to: 'x@example.com', subject: 'Hi', message: NUL }), 'message'],
    ['POST', () => '/api/members/register', () => ({ username: 'hostile01', fullName: 'a\u0007b' }), 'fullName'],
    ['POST', () => `/api/admin/rounds/${roundId}/attendance/${member.id}/void`, () => ({ reason: NUL }), 'reason'],
    ['POST', () => `/api/courses/a${'\u0000'}b/enroll`, () => undefined, 'id'],
  ];
  it.each(badText.map(([method, url, body, field]) => ({ method, url, body, field })))(
    '$method with bad text in $field: 400 naming the field',
    async ({ method, url, body, field }) => {
      const before = await events();
      const answer = await portal.app.inject({
        method,
        url: url(),
        headers: { authorization: `Bearer ${portal.adminToken}`, 'accept-language': 'en' },
        payload: body(),
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors[field]).toMatch(/cannot be used|one line/);
      expect(await events()).toBe(before);
    },
  );

  it('keeps single-line fields on one line, and lets multi-line fields have lines', async () => {
    const topic = await call('POST', '/api/admin/createcourse', portal.adminToken, {
      courseTopic: 'Two\nlines',
      courseDescription: 'Line one\nLine two\twith a tab',
    });
    expect(topic.statusCode).toBe(400);
    expect(topic.json().errors).toEqual({ courseTopic: 'Please keep this text on one line.' });
    const fine = await call('POST', '/api/admin/createcourse', portal.adminToken, {
      courseTopic: 'ภาษาไทย \u200F RTL 👩🏽‍🍳',
      courseDescription: 'Line one\nLine two\twith a tab',
    });
    expect(fine.statusCode).toBe(201);
  });

  it.each([
    ['/api/members/uploadprofile/', 'profileImage'],
    ['/api/admin/courses/{course}/uploadImage', 'courseImage'],
  ])('answers 400, not 500, to multipart without a boundary or with a wrong field (%s)', async (path, field) => {
    const url = path.includes('{course}') ? path.replace('{course}', courseId) : `${path}${member.id}`;
    const token = path.includes('{course}') ? portal.adminToken : member.token;
    const method = path.includes('{course}') ? 'PUT' : 'POST';
    const headers = { authorization: `Bearer ${token}`, 'accept-language': 'en' };
    const noBoundary = await portal.app.inject({
      method,
      url,
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: 'hello',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().errors[field]).toBeTruthy();
    const wrongField = await multipartBody('other', Buffer.from('hello'), 'a.txt', 'text/plain');
    const wrong = await portal.app.inject({
      method,
      url,
      headers: { ...headers, ...wrongField.headers },
      payload: wrongField.payload,
    });
    expect(wrong.statusCode).toBe(400);
    const cut = await multipartBody(field, Buffer.alloc(2000, 1), 'a.png', 'image/png');
    const truncated = await portal.app.inject({
      method,
      url,
      headers: { ...headers, ...cut.headers },
      payload: cut.payload.subarray(0, 500),
    });
    expect(truncated.statusCode).toBeGreaterThanOrEqual(400);
    expect(truncated.statusCode).toBeLessThan(500);
  });

  it('refuses NUL, lone surrogates and 1 MB strings in every field issue 23 added, with a 4xx, appending nothing', async () => {
    const MEGABYTE = 'x'.repeat(1024 * 1024);
    const before = await events();
    const statusOf = async (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
      (await call(method, url, token, payload)).statusCode;
    const hostile = [NUL, LONE_SURROGATE, MEGABYTE];
    const answers: [string, number][] = [];
    for (const bad of hostile) {
      const label = bad === MEGABYTE ? '1 MB' : JSON.stringify(bad);
      const checkIn = `/api/rounds/${roundId}/self-check-in`;
      answers.push([
        `code ${label}`,
        await statusOf('POST', checkIn, member.token, { code: bad, deviceId: 'phone-1234' }),
      ]);
      answers.push([`deviceId ${label}`, await statusOf('POST', checkIn, member.token, { code: 'c', deviceId: bad })]);
      const settings = `/api/admin/courses/${courseId}/self-check-in`;
      const location = { latitude: bad, longitude: 100, radiusMetres: 100 };
      answers.push([
        `latitude ${label}`,
        await statusOf('PUT', settings, portal.adminToken, { location, onePerDevice: false }),
      ]);
      const password = { newPassword: 'long-enough', confirmNewPassword: 'long-enough' };
      answers.push([`token ${label}`, await statusOf('POST', '/api/password/set', '', { token: bad, ...password })]);
      const secret = { token: 'a.b', newPassword: bad, confirmNewPassword: bad };
      answers.push([`newPassword ${label}`, await statusOf('POST', '/api/password/set', '', secret)]);
      const rule = `/api/admin/courses/${courseId}/completion-rule`;
      answers.push([`percent ${label}`, await statusOf('PUT', rule, portal.adminToken, { percent: bad })]);
      const revoke = `/api/admin/courses/${courseId}/certificates/${member.id}/revoke`;
      answers.push([`reason ${label}`, await statusOf('POST', revoke, portal.adminToken, { reason: bad })]);
    }
    for (const bad of hostile) {
      const label = bad === MEGABYTE ? '1 MB' : JSON.stringify(bad);
      const csv = `username,personalId,personalPhone,personalEmail\r\n${bad},${bad},${bad},${bad}\r\n`;
      const checked = await call('POST', '/api/admin/imports/check', portal.adminToken, { csv });
      answers.push([`import check ${label}`, checked.statusCode === 200 ? 400 : checked.statusCode]);
      if (checked.statusCode === 200) expect(checked.json().summary.invalid, label).toBe(1);
      const row = { line: 2, username: bad, personalId: bad, personalPhone: bad, personalEmail: bad };
      const rows = await call('POST', '/api/admin/imports/rows', portal.adminToken, { rows: [row] });
      answers.push([`import row ${label}`, rows.statusCode === 200 ? 400 : rows.statusCode]);
      if (rows.statusCode === 200) expect(rows.json().results[0].status, label).toBe('invalid');
    }
    for (const id of ['%00', '%ED%A0%80', 'x'.repeat(200_000)]) {
      answers.push([
        `certificate ${id.slice(0, 12)}`,
        await statusOf('GET', `/api/certificates/${id}/verification`, ''),
      ]);
      answers.push([`pdf ${id.slice(0, 12)}`, await statusOf('GET', `/api/certificates/${id}/pdf`, member.token)]);
    }
    for (const path of ['%00.ics', '%ED%A0%80.ics', `${'x'.repeat(200_000)}.ics`]) {
      answers.push([`feed ${path.slice(0, 12)}`, await statusOf('GET', `/api/calendar/${path}`, '')]);
    }
    for (const [field, status] of answers) {
      expect(status, field).toBeGreaterThanOrEqual(400);
      expect(status, field).toBeLessThan(500);
    }
    expect(await events()).toBe(before);
    expect(await caughtUp(portal)).toMatchObject({ running: true, behind: 0 });
  });

  it('still projects a sealed NUL or lone surrogate already in the log, and the read side keeps going', async () => {
    // As the old command side wrote them before the rule: sealed, so the log's jsonb took them.
    const sealed = await seal(portal.db, 'contact-old-1', {
      name: `Old ${NUL} ${LONE_SURROGATE}`,
      email: 'old@example.com',
      subject: 'Sub\u0001ject',
      message: 'an old message with a NUL \u0000 inside',
    });
    const old = ContactMessageReceived.create({
      content: sealed,
      senderId: null,
      receivedAt: new Date().toISOString(),
    });
    await portal.store.append(contactStream('old-1'), [old], { expectedRevision: 'no_stream' });
    const after = await call('POST', '/api/contact', '', {
      name: 'A later visitor',
      email: 'later@example.com',
      message: 'this one must still arrive',
    });
    expect(after.statusCode).toBe(201);
    expect(await caughtUp(portal)).toMatchObject({ running: true, behind: 0 });
    const inbox = (await call('GET', '/api/admin/contact-messages', portal.adminToken)).json();
    const names = inbox.contactMessages.map((message: { name: string }) => message.name);
    expect(names).toContain('A later visitor');
    expect(names).toContain('Old ab a\uFFFDb');
  });
});
