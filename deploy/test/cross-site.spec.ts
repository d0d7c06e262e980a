import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '@portal/platform/testing/multipart';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const HOST = 'portal.example:3000';

/**
 * Cross-site requests (issue 17): found, a page on another origin could make a signed-in
 * member's browser enrol, upload a photo or mark notifications read, since the session cookie
 * went along. A command authenticated by the cookie must now come from the portal's own origin
 * (Origin, or Sec-Fetch-Site when Origin is absent); bearer-token callers are not affected.
 */
describe.each(testDatabases())('commands from another site on $name', (database) => {
  let portal: TestPortal;
  let member: { id: string; token: string; person: { username: string; password: string } };
  let courseId: string;
  let cookie: string;
  const { approvedMember, courseWithRounds } = portalCalls(() => portal);
  beforeAll(async () => {
    portal = await openTestPortal(database);
    member = await approvedMember('Cross Site');
    courseId = (await courseWithRounds(portal.adminToken, [[hour, 2 * hour]], 'Cross-site target')).id;
    const login = await portal.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: HOST, origin: `http://${HOST}` },
      payload: { username: member.person.username, password: member.person.password },
    });
    cookie = `token=${login.cookies.find((c) => c.name === 'token')!.value}`;
  });
  afterAll(() => portal.close());

  const commands = async () => {
    const photo = await multipartBody('profileImage', Buffer.from('not a picture'), 'a.png', 'image/png');
    return [
      { method: 'POST', url: `/api/courses/${courseId}/enroll`, headers: {}, payload: undefined },
      { method: 'POST', url: '/api/notifications/read-all', headers: {}, payload: undefined },
      { method: 'POST', url: '/api/notifications/read', headers: {}, payload: { ids: ['x'] } },
      {
        method: 'POST',
        url: '/api/contact',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=a&email=a%40example.com&message=hello+there+friend',
      },
      {
        method: 'POST',
        url: `/api/members/uploadprofile/${member.id}`,
        headers: photo.headers,
        payload: photo.payload,
      },
    ] as const;
  };

  it('refuses each kind of command carried by the cookie from another origin, in the user’s language', async () => {
    for (const command of await commands()) {
      for (const headers of [
        { origin: 'http://evil.example' },
        { origin: `http://sub.${HOST}` },
        { origin: 'http://portal.example:4000' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
      ]) {
        const answer = await portal.app.inject({
          method: command.method,
          url: command.url,
          headers: { ...command.headers, ...headers, host: HOST, cookie, 'accept-language': 'th' },
          payload: command.payload,
        });
        expect(answer.statusCode, `${command.url} ${JSON.stringify(headers)}`).toBe(403);
        expect(answer.json().message).toBe('คำขอนี้มาจากเว็บไซต์อื่น จึงไม่ได้รับอนุญาต');
      }
    }
  });

  it('lets the portal’s own pages, and bearer-token callers from anywhere, through', async () => {
    const own = await portal.app.inject({
      method: 'POST',
      url: '/api/notifications/read-all',
      headers: { host: HOST, cookie, origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(200);
    const withoutOrigin = await portal.app.inject({
      method: 'POST',
      url: '/api/notifications/read-all',
      headers: { host: HOST, cookie },
    });
    expect(withoutOrigin.statusCode).toBe(200);
    const device = await portal.app.inject({
      method: 'POST',
      url: `/api/courses/${courseId}/enroll`,
      headers: { host: HOST, authorization: `Bearer ${member.token}`, origin: 'http://evil.example' },
    });
    expect(device.statusCode).toBe(200);
  });
});
