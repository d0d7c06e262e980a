import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRevocationTable, sessionState } from '@portal/platform/http/revocations';
import { sessionLifetimesFromEnv } from '@portal/platform/http/service-config';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * Sessions that end (issue 17): found, after POST /api/logout or a password change the old token
 * still answered 200. Logout now ends the session on the server, with the cookie or a bearer
 * token; a password change ends every other session of the account and hands the caller a new one;
 * rejection, deletion and erasure end them all; an unused session ends after its idle time, any
 * session after its absolute lifetime.
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

  it('answers 64 logouts of one session at once, every one, and the session ends', async () => {
    const session = await signIn();
    expect((await me({ authorization: `Bearer ${session.token}` })).statusCode).toBe(200);
    const logouts = await Promise.all(
      Array.from({ length: 64 }, () =>
        portal.app.inject({
          method: 'POST',
          url: '/api/logout',
          headers: { authorization: `Bearer ${session.token}` },
        }),
      ),
    );
    expect(logouts.filter((answer) => answer.statusCode === 200)).toHaveLength(64);
    expect((await me({ authorization: `Bearer ${session.token}` })).statusCode).toBe(401);
    expect((await me({ cookie: session.cookie })).statusCode).toBe(401);
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

  describe('when the admin rejects, deletes or erases the account', () => {
    type Request = { method: 'PUT' | 'DELETE'; url: string; payload?: object };
    const cases: [string, (id: string) => Request][] = [
      [
        'rejects',
        (id) => ({ method: 'PUT', url: `/api/admin/registration/${id}/status`, payload: { status: 'rejected' } }),
      ],
      ['deletes', (id) => ({ method: 'DELETE', url: `/api/admin/registration/${id}` })],
      ['erases', (id) => ({ method: 'DELETE', url: `/api/admin/members/${id}/personal-data` })],
    ];
    it.each(cases)('ends every session when the admin %s the account', async (_, request) => {
      const someone = await approvedMember('Soon Gone');
      const answer = await portal.app.inject({
        method: 'POST',
        url: '/api/login',
        payload: { username: someone.person.username, password: someone.person.password },
      });
      const cookie = `token=${answer.cookies.find((c) => c.name === 'token')!.value}`;
      const bearer = { authorization: `Bearer ${answer.json().partner.token}` };
      expect((await me({ cookie })).statusCode).toBe(200);
      expect((await me(bearer)).statusCode).toBe(200);
      const done = await portal.app.inject({
        ...request(someone.id),
        headers: { authorization: `Bearer ${portal.adminToken}` },
      });
      expect(done.statusCode).toBe(200);
      expect((await me({ cookie })).statusCode).toBe(401);
      expect((await me(bearer)).statusCode).toBe(401);
    });
  });
});

describe.each(testDatabases())('session lifetimes on $name', (database) => {
  let portal: TestPortal;
  let now = Date.now();
  const { approvedMember } = portalCalls(() => portal);
  const members: Awaited<ReturnType<typeof approvedMember>>[] = [];
  beforeAll(async () => {
    portal = await openTestPortal(database, {
      sessions: { lifetimes: { idleMinutes: 30, maxHours: 12 }, clock: () => now },
    });
    // Registered while the admin's own session is young: the tests then move the clock on.
    for (let n = 0; n < 4; n++) members.push(await approvedMember('Time Keeper'));
  });
  afterAll(() => portal.close());

  const signIn = async () => {
    const member = members.pop()!;
    const answer = await portal.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: member.person.username, password: member.person.password },
    });
    return [
      { cookie: `token=${answer.cookies.find((c) => c.name === 'token')!.value}` },
      { authorization: `Bearer ${answer.json().partner.token}` },
    ] as const;
  };
  const status = async (auth: { authorization: string } | { cookie: string }) =>
    (await portal.app.inject({ method: 'GET', url: '/api/members/me/pass', headers: auth })).statusCode;
  const minutes = (n: number) => (now += n * 60_000);

  it('ends only the session that logs out, even when two began in the same millisecond', async () => {
    // The test clock stands still: both sessions of this member are issued at the same moment.
    const member = members.at(-1)!;
    const again = async () =>
      (
        await portal.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: member.person.username, password: member.person.password },
        })
      ).json().partner.token as string;
    const first = await again();
    const second = await again();
    await portal.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: `Bearer ${first}` } });
    expect(await status({ authorization: `Bearer ${first}` })).toBe(401);
    expect(await status({ authorization: `Bearer ${second}` })).toBe(200);
  });

  it('keeps the session a password change hands over, even when the database’s clock is ahead', async () => {
    // The sessions' clock stands still, behind the database's, which notes when the old ones end.
    const member = members.shift()!;
    const signedIn = await portal.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: member.person.username, password: member.person.password },
    });
    const old = { authorization: `Bearer ${signedIn.json().partner.token}` };
    const change = await portal.app.inject({
      method: 'PUT',
      url: `/api/members/change-password/${member.id}`,
      headers: old,
      payload: {
        currentPassword: member.person.password,
        newPassword: 'a-new-password-1',
      },
    });
    expect(change.statusCode).toBe(200);
    expect(await status(old)).toBe(401);
    expect(await status({ authorization: `Bearer ${change.json().token}` })).toBe(200);
    const renewed = change.cookies.find((cookie) => cookie.name === 'token')!.value;
    expect(await status({ cookie: `token=${renewed}` })).toBe(200);
  });

  it('ends a session unused for longer than its idle time, with the cookie and with a bearer token', async () => {
    const [cookie, bearer] = await signIn();
    minutes(29);
    expect(await status(cookie)).toBe(200);
    minutes(29); // 58 minutes after sign-in, 29 after the last use: still going
    expect(await status(bearer)).toBe(200);
    minutes(31);
    expect(await status(cookie)).toBe(401);
    expect(await status(bearer)).toBe(401);
  });

  it('ends every session at its absolute lifetime, however busy', async () => {
    const [cookie, bearer] = await signIn();
    for (let hour = 0; hour < 12 * 4 - 1; hour++) {
      minutes(15);
      expect(await status(hour % 2 ? cookie : bearer)).toBe(200);
    }
    minutes(16); // 12 hours and a minute after sign-in
    expect(await status(cookie)).toBe(401);
    expect(await status(bearer)).toBe(401);
  });

  it('reads the lifetimes from the environment and refuses nonsense', () => {
    expect(sessionLifetimesFromEnv({})).toEqual({ idleMinutes: 30, maxHours: 12 });
    expect(sessionLifetimesFromEnv({ SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '8' })).toEqual({
      idleMinutes: 15,
      maxHours: 8,
    });
    expect(() => sessionLifetimesFromEnv({ SESSION_IDLE_MINUTES: '0' })).toThrow(/positive number/);
    expect(() => sessionLifetimesFromEnv({ SESSION_MAX_HOURS: 'forever' })).toThrow(/positive number/);
  });
});

describe.each(testDatabases())('logouts noted by an earlier version, on $name', (database) => {
  it('still end those sessions after the upgrade', async () => {
    const { db, drop } = await database.open();
    try {
      await db.query(`CREATE SCHEMA auth`);
      await db.query(`CREATE TABLE auth.ended_sessions (
        account_id text NOT NULL, issued_at_ms bigint NOT NULL, ended_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, issued_at_ms))`);
      await db.query(`INSERT INTO auth.ended_sessions (account_id, issued_at_ms) VALUES ('acc-1', 1700000000000)`);
      await createRevocationTable(db);
      // A token from before sessions had ids is known by its account and moment of issue.
      const old = { sessionId: 'acc-1:1700000000000', accountId: 'acc-1', issuedAtMs: 1700000000000 };
      expect((await sessionState(db, old)).ended).toBe(true);
      expect(
        (await sessionState(db, { ...old, sessionId: 'acc-1:1700000000001', issuedAtMs: 1700000000001 })).ended,
      ).toBe(false);
    } finally {
      await drop();
    }
  });
});
