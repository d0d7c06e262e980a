import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordLinkToken, passwordState } from '@portal/command-api/accounts/password-links';
import { sampleMember } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { startSmtpSink } from '../src/testing/smtp-sink.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const PASS_SECRET = 'password-link-test-pass-secret';
const attendance = { passSecret: PASS_SECRET, opensEarlyMinutes: 0, closesLateMinutes: 0, lateAfterMinutes: 15 };

/**
 * A link to set one's password (issue 23's onboarding): an admin e-mails it, through a real SMTP
 * server; it works once, for a week, for that account only, and ends every session.
 */
describe.each(testDatabases())('set-password links on $name', (database) => {
  let portal: TestPortal;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    portal = await openTestPortal(database, {
      attendance,
      mail: { smtpUrl: smtp.url, from: 'Course Portal <no-reply@course-portal.test>' },
    });
  });
  afterAll(async () => {
    await portal.close();
    await smtp.close();
  });
  const { call, approvedMember } = portalCalls(() => portal);
  const setPassword = (body: object, language = 'en') =>
    portal.app.inject({
      method: 'POST',
      url: '/api/password/set',
      headers: { 'accept-language': language },
      payload: body,
    });
  const signIn = (username: string, password: string) => call('POST', '/api/login', '', { username, password });

  async function emailedToken(person: { personalEmail: string }, id: string) {
    const before = smtp.received.length;
    const sent = await call('POST', `/api/admin/members/${id}/password-link`, portal.adminToken);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ transport: 'smtp', message: 'The password link was sent.' });
    await expect.poll(() => smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toMatchObject({ text: person.personalEmail.toLowerCase() });
    expect(mail.subject).toBe('ตั้งรหัสผ่านสำหรับพอร์ทัลหลักสูตร / Set your password for the course portal');
    const token = /\/set-password\?token=([\w.-]+)/.exec(mail.text ?? '')?.[1];
    expect(token).toBeDefined();
    return token!;
  }

  it('sets the password once from the e-mailed link, and ends the sessions the account had', async () => {
    const member = await approvedMember('Linked Member');
    const token = await emailedToken(member.person, member.id);

    const mismatch = await setPassword({ token, newPassword: 'brand-new-pass', confirmNewPassword: 'other' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.confirmNewPassword).toBeDefined();

    const done = await setPassword({ token, newPassword: 'brand-new-pass', confirmNewPassword: 'brand-new-pass' });
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your password is set. You can sign in now.');
    expect((await signIn(member.person.username, 'brand-new-pass')).statusCode).toBe(200);
    expect((await signIn(member.person.username, member.person.password)).statusCode).toBe(401);
    // The session signed in before the link was used has ended.
    expect((await call('GET', '/api/notifications', member.token)).statusCode).toBe(401);

    const again = await setPassword(
      { token, newPassword: 'third-password', confirmNewPassword: 'third-password' },
      'th',
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.token).toBe('ลิงก์ตั้งรหัสผ่านนี้ใช้ไม่ได้ อาจหมดอายุหรือถูกใช้ไปแล้ว กรุณาขอลิงก์ใหม่จากผู้ดูแลระบบ');
  });

  it('refuses a forged, altered, expired or other server’s link, and lets only admins send one', async () => {
    const member = await approvedMember('Forged Member');
    const other = await approvedMember('Other Member');
    const token = await emailedToken(member.person, member.id);
    const [accountId, expiresAt, state, mac] = token.split('.') as [string, string, string, string];
    const body = (candidate: string) => ({
      token: candidate,
      newPassword: 'forged-password',
      confirmNewPassword: 'forged-password',
    });
    const now = Date.now();
    const forged = [
      `${other.id}.${expiresAt}.${state}.${mac}`,
      `${accountId}.${Number(expiresAt) + 1}.${state}.${mac}`,
      `${accountId}.${expiresAt}.${state}.${'A'.repeat(43)}`,
      passwordLinkToken('another-secret', { accountId, state, expiresAt: Number(expiresAt) }),
      passwordLinkToken(PASS_SECRET, { accountId, state, expiresAt: now - 1 }),
      passwordLinkToken(PASS_SECRET, { accountId, state: passwordState('not the hash'), expiresAt: now + 60_000 }),
      'not a token',
      'a'.repeat(600),
    ];
    for (const candidate of forged) {
      const answer = await setPassword(body(candidate));
      expect(answer.statusCode, candidate).toBe(400);
      expect(Object.keys(answer.json().errors), candidate).toEqual(['token']);
    }
    expect((await signIn(member.person.username, member.person.password)).statusCode).toBe(200);
    expect((await call('POST', `/api/admin/members/${other.id}/password-link`, member.token)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/admin/members/0123456789abcdef01234567/password-link', portal.adminToken)).statusCode,
    ).toBe(404);
  });

  it('lets exactly one of 64 uses of one link at once set the password', async () => {
    const person = sampleMember();
    const id = (await call('POST', '/api/admin/members', portal.adminToken, person)).json()._id as string;
    const token = await emailedToken(person, id);
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, n) =>
        setPassword({ token, newPassword: `raced-password-${n}`, confirmNewPassword: `raced-password-${n}` }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 400)).toHaveLength(63);
    const winner = codes.indexOf(200);
    expect((await signIn(person.username, `raced-password-${winner}`)).statusCode).toBe(200);
  });
});
