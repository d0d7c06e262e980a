import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres } from '@portal/platform/store/postgres';
import { testDatabases } from '@portal/platform/testing/databases';
import { ADMIN, type Harness, member, serveCommandApi, startCommandApi } from './harness.ts';

/**
 * Found: five wrong passwords for a username locked it for 15 minutes, the right password then
 * got 429 as well, and repeating kept the first admin locked for ever. Now an address is limited
 * across accounts, an account under attack slows only the addresses failing at it, and the
 * counts are in the database, shared by every command-api process.
 */
describe.each(testDatabases())('signing in under attack on $name', (database) => {
  let h: Harness & { url?: string; close(): Promise<void> };
  let now = Date.parse('2026-11-23T10:00:00Z');
  const clock = { now: () => now };
  beforeAll(async () => {
    h = await startCommandApi(database, undefined, { signIn: clock });
  });
  afterAll(() => h.close());

  const signIn = (username: string, password: string, address: string, app: FastifyInstance = h.app) =>
    app.inject({ method: 'POST', url: '/api/login', remoteAddress: address, payload: { username, password } });

  let registered = 0;
  const approvedMember = async () => {
    const person = member({ username: `owner${String(++registered).padStart(3, '0')}` });
    const admin = await signIn(ADMIN.username, ADMIN.password, '192.0.2.250');
    const token = admin.json().partner.token as string;
    const { _id } = (await h.app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
    await h.app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${_id}/status`,
      payload: { status: 'approved' },
      headers: { authorization: `Bearer ${token}` },
    });
    return person;
  };

  it('lets one address try exactly 20 passwords in 15 minutes across accounts, even all at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, n) => signIn(`sprayed${n}`, 'wrong-password-1', '198.51.100.1')),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(20);
    expect(codes.filter((code) => code === 429)).toHaveLength(44);
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBe(15 * 60);
    // Another address is not affected; this one may try again when its window has passed.
    expect((await signIn('sprayed0', 'wrong-password-1', '198.51.100.2')).statusCode).toBe(401);
    now += 15 * 60_000 + 1;
    expect((await signIn('sprayed0', 'wrong-password-1', '198.51.100.1')).statusCode).toBe(401);
  });

  it('lets the owner sign in during a spray at their account from many other addresses', async () => {
    const owner = await approvedMember();
    for (let address = 1; address <= 40; address++) {
      for (let n = 0; n < 3; n++) await signIn(owner.username, `guess-${n}`, `203.0.113.${address}`);
    }
    // 120 failures at the account: a sprayer is now slowed down...
    const slowed = await signIn(owner.username, 'guess-4', '203.0.113.1');
    expect(slowed.statusCode).toBe(429);
    // ...but the owner, from an address that has not been failing, is not.
    const ownSignIn = await signIn(owner.username, owner.password, '192.0.2.10');
    expect(ownSignIn.statusCode).toBe(200);
    expect(ownSignIn.json().partner.username).toBe(owner.username);
  });

  it('slows an address failing at one account with a growing delay, and never locks the owner out', async () => {
    const owner = await approvedMember();
    const home = '192.0.2.20';
    for (let n = 0; n < 5; n++) expect((await signIn(owner.username, 'typo-password', home)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let n = 0; n < 4; n++) {
      const refused = await signIn(owner.username, owner.password, home);
      expect(refused.statusCode).toBe(429);
      waits.push(Number(refused.headers['retry-after']));
      now += waits[n]! * 1000;
      expect((await signIn(owner.username, 'typo-password', home)).statusCode).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    now += 16_000;
    // After the wait, the right password signs in, and the owner's own typos are forgotten.
    expect((await signIn(owner.username, owner.password, home)).statusCode).toBe(200);
    expect((await signIn(owner.username, 'typo-password', home)).statusCode).toBe(401);
  });

  it('answers a username that does not exist exactly as one that does', async () => {
    const owner = await approvedMember();
    const pattern = async (username: string, address: string) => {
      const seen: string[] = [];
      for (let n = 0; n < 8; n++) {
        const answer = await signIn(username, 'wrong-password-1', address);
        seen.push(`${answer.statusCode} ${answer.headers['retry-after'] ?? '-'} ${answer.json().message}`);
      }
      return seen;
    };
    const real = await pattern(owner.username, '198.51.100.30');
    expect(real.filter((line) => line.startsWith('429'))).not.toHaveLength(0);
    expect(await pattern('nobody-by-this-name', '198.51.100.31')).toEqual(real);
  });

  it('applies the same limits to the current password of a password change', async () => {
    const owner = await approvedMember();
    const address = '192.0.2.40';
    const session = (await signIn(owner.username, owner.password, address)).json().partner;
    const change = (currentPassword: string) =>
      h.app.inject({
        method: 'PUT',
        url: `/api/members/change-password/${session._id}`,
        remoteAddress: address,
        headers: { authorization: `Bearer ${session.token}` },
        payload: { currentPassword, newPassword: 'a-new-password-1' },
      });
    for (let n = 0; n < 5; n++) expect((await change('not-my-password')).statusCode).toBe(400);
    const refused = await change(owner.password);
    expect(refused.statusCode).toBe(429);
    now += Number(refused.headers['retry-after']) * 1000;
    expect((await change(owner.password)).statusCode).toBe(200);
  });

  it('shares the counts between command-api processes on one database', async () => {
    // A second command API with its own connection stands for another process.
    const other = h.url ? connectPostgres({ connectionString: h.url }) : h.db;
    const { app: second } = await serveCommandApi(other, undefined, { signIn: clock });
    try {
      const address = '198.51.100.50';
      for (let n = 0; n < 10; n++) expect((await signIn(`shared${n}`, 'wrong', address)).statusCode).toBe(401);
      for (let n = 10; n < 20; n++) {
        expect((await signIn(`shared${n}`, 'wrong', address, second)).statusCode).toBe(401);
      }
      expect((await signIn('shared-last', 'wrong', address)).statusCode).toBe(429);
      expect((await signIn('shared-last', 'wrong', address, second)).statusCode).toBe(429);
    } finally {
      await second.close();
      if (other !== h.db) await other.close();
    }
  });
});
