import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/events/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * Sessions that end (issue 17): found, after POST /api/logout or a password change the old token
 * still answered 200. Logout now ends the session on the server, with the cookie or a bearer
 * token; a password change ends every other session of the account and hands the caller a new one.
 */
describe.each(testDatabases())('sessions that end on $name', (database) => {
  let portal: TestPortal;
  let member: { id: string; person: { username: string; password: string } };
  const { approvedMember } = portalCalls(() => portal);
  beforeAll(async () => {
    portal = await openTestPortal(database);
    member = await approvedMember('Session Ender');
  });
  afterAll(() => portal.close());

  const signIn = async (password = member.person.password) => {
    const answer = await portal.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: member.person.username, password },
    });
    expect(answer.statusCode).toBe(200);
    return {
      token: answer.json().partner.token as string,
      cookie: `token=${answer.cookies.find((c) => c.name === 'token')!.value}`,
    };
  };
  const me = (auth: { authorization: string } | { cookie: string }) =>
    portal.app.inject({ method: 'GET', url: '/api/members/me/pass', headers: auth });

  it('ends the session on logout, with the cookie and with a bearer token', async () => {
    const byCookie = await signIn();
    expect((await me({ cookie: byCookie.cookie })).statusCode).toBe(200);
    const out = await portal.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie: byCookie.cookie } });
    expect(out.statusCode).toBe(200);
    expect((await me({ cookie: byCookie.cookie })).statusCode).toBe(401);
    expect((await me({ authorization: `Bearer ${byCookie.token}` })).statusCode).toBe(401);

    const byBearer = await signIn();
    const other = await signIn();
    await portal.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { authorization: `Bearer ${byBearer.token}` },
    });
    expect((await me({ authorization: `Bearer ${byBearer.token}` })).statusCode).toBe(401);
    // Only that session: the member's other one goes on.
    expect((await me({ authorization: `Bearer ${other.token}` })).statusCode).toBe(200);
  });

  it('ends every other session on a password change, and keeps the one that changed it', async () => {
    const phone = await signIn();
    const laptop = await signIn();
    const change = await portal.app.inject({
      method: 'PUT',
      url: `/api/members/change-password/${member.id}`,
      headers: { cookie: laptop.cookie },
      payload: {
        currentPassword: member.person.password,
        newPassword: 'a-new-password-1',
        confirmNewPassword: 'a-new-password-1',
      },
    });
    expect(change.statusCode).toBe(200);
    member.person.password = 'a-new-password-1';
    expect((await me({ authorization: `Bearer ${phone.token}` })).statusCode).toBe(401);
    expect((await me({ cookie: phone.cookie })).statusCode).toBe(401);
    // The laptop carries on with the session the change handed it (cookie, and token for devices).
    const renewed = `token=${change.cookies.find((c) => c.name === 'token')!.value}`;
    expect((await me({ cookie: renewed })).statusCode).toBe(200);
    expect((await me({ authorization: `Bearer ${change.json().token}` })).statusCode).toBe(200);
    expect((await me({ cookie: laptop.cookie })).statusCode).toBe(401);
  });
});
