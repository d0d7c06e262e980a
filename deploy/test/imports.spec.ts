import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_COLUMNS } from '@portal/contracts/rules/import';
import { sampleMember } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { startSmtpSink } from '../src/testing/smtp-sink.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const COLUMNS = IMPORT_COLUMNS;
type Person = ReturnType<typeof sampleMember>;
const quoted = (value: unknown) => `"${String(value).replaceAll('"', '""')}"`;
/** A file as Excel saves "CSV UTF-8": a BOM, CRLF, every value quoted. */
const csvOf = (people: Person[]) =>
  `\ufeff${COLUMNS.join(',')}\r\n${people.map((p) => COLUMNS.map((c) => quoted(p[c])).join(',')).join('\r\n')}\r\n`;

/**
 * Bulk onboarding (issue 23): a file with a mistake of every kind is checked in Thai, row by row,
 * nothing created; its good rows are imported (approved, enrolled, e-mailed a link); the file,
 * fixed, is imported again and creates only what was missing.
 */
describe.each(testDatabases())('importing members on $name', (database) => {
  let portal: TestPortal;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    portal = await openTestPortal(database, {
      mail: { smtpUrl: smtp.url, from: 'Course Portal <no-reply@course-portal.test>' },
    });
  });
  afterAll(async () => {
    await portal.close();
    await smtp.close();
  });
  const { call, approvedMember } = portalCalls(() => portal);
  const check = (csv: string, language = 'th') =>
    portal.app.inject({
      method: 'POST',
      url: '/api/admin/imports/check',
      headers: { authorization: `Bearer ${portal.adminToken}`, 'accept-language': language },
      payload: { csv },
    });
  const importRows = (rows: { line: number; values: Record<string, string> }[], courseId: string | null = null) =>
    call('POST', '/api/admin/imports/rows', portal.adminToken, {
      courseId,
      rows: rows.map((row) => ({ line: row.line, ...row.values })),
    });

  it('checks every row in the admin’s language, creates the good ones, and the fixed file creates only the rest', async () => {
    const existing = await approvedMember('Already Here');
    const course = (
      await call('POST', '/api/admin/createcourse', portal.adminToken, {
        courseTopic: 'Onboarding',
        courseDescription: 'x',
        maxPeople: 2,
        status: 'private',
      })
    ).json()._id as string;
    const good = sampleMember({ fullName: 'สมศรี ใจดี', title: 'นางสาว' });
    const alsoGood = sampleMember({ fullName: 'Anong Import' });
    const badId = sampleMember({ personalId: '1101700000000' });
    const twinA = sampleMember({ personalEmail: 'twin@example.com' });
    const twinB = sampleMember({ personalEmail: 'Twin@Example.com' });
    const taken = sampleMember({ username: existing.person.username });
    const shortPhone = sampleMember({ personalPhone: '081234567' });
    const file = [good, badId, twinA, twinB, taken, alsoGood, shortPhone];

    const checked = await check(csvOf(file));
    expect(checked.statusCode).toBe(200);
    const body = checked.json();
    expect(body.summary).toEqual({ rows: 7, new: 2, invalid: 5, imported: 0 });
    const errorsOn = (line: number) => body.rows.find((row: { line: number }) => row.line === line).errors;
    expect(errorsOn(3)).toEqual({ personalId: 'เลขบัตรประชาชนไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง' });
    expect(errorsOn(4)).toEqual({ personalEmail: 'ซ้ำกับแถวอื่นในไฟล์นี้' });
    expect(errorsOn(5)).toEqual({ personalEmail: 'ซ้ำกับแถวอื่นในไฟล์นี้' });
    expect(errorsOn(6)).toEqual({ username: 'ชื่อผู้ใช้นี้ถูกใช้งานแล้ว' });
    expect(Object.keys(errorsOn(8))).toEqual(['personalPhone']);
    expect(body.rows.find((row: { line: number }) => row.line === 2).values.fullName).toBe('สมศรี ใจดี');
    // A dry run creates nobody.
    const list = async () =>
      (await call('GET', '/api/admin/registration', portal.adminToken))
        .json()
        .members.map((m: { username: string }) => m.username);
    expect(await list()).not.toContain(good.username);

    const fresh = body.rows.filter((row: { status: string }) => row.status === 'new');
    const before = smtp.received.length;
    const created = await importRows(fresh, course);
    expect(created.statusCode).toBe(200);
    expect(
      created
        .json()
        .results.map((r: { line: number; status: string; enrolled: boolean }) => [r.line, r.status, r.enrolled]),
    ).toEqual([
      [2, 'created', true],
      [7, 'created', true],
    ]);
    expect(await list()).toEqual(expect.arrayContaining([good.username, alsoGood.username]));
    // Each is e-mailed a link to set a password, and signs in with it; no password was known before.
    await expect.poll(() => smtp.received.length).toBe(before + 2);
    const letter = smtp.received
      .slice(before)
      .find((mail) => mail.to && JSON.stringify(mail.to).includes(good.personalEmail.toLowerCase()))!;
    const token = /\/set-password\?token=([\w.-]+)/.exec(letter.text ?? '')![1];
    const set = await portal.app.inject({
      method: 'POST',
      url: '/api/password/set',
      payload: { token, newPassword: 'imported-pass-1', confirmNewPassword: 'imported-pass-1' },
    });
    expect(set.statusCode).toBe(200);
    const signIn = await call('POST', '/api/login', '', { username: good.username, password: 'imported-pass-1' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().partner.role).toBe('member');

    // The same chunk again (a retry after a lost answer): nobody new, nobody e-mailed again.
    const again = await importRows(fresh, course);
    expect(again.json().results.map((r: { status: string }) => r.status)).toEqual(['imported', 'imported']);

    // The file fixed: its two good rows show as imported, the fixed ones as new; importing them creates three.
    const fixed = [
      good,
      { ...badId, personalId: sampleMember().personalId },
      twinA,
      { ...twinB, personalEmail: 'twin.b@example.com' },
      { ...taken, username: `${taken.username}x` },
      alsoGood,
      { ...shortPhone, personalPhone: '0812345670' },
    ];
    const rechecked = (await check(csvOf(fixed), 'en')).json();
    expect(rechecked.summary).toEqual({ rows: 7, new: 5, invalid: 0, imported: 2 });
    const rest = await importRows(rechecked.rows, course);
    const statuses = rest.json().results.map((r: { status: string }) => r.status);
    expect(statuses.filter((s: string) => s === 'created')).toHaveLength(5);
    expect(statuses.filter((s: string) => s === 'imported')).toHaveLength(2);
    // The course had room for two: the rest were created but not enrolled.
    expect(rest.json().results.filter((r: { enrolled: boolean }) => r.enrolled)).toHaveLength(2);
  });

  it('refuses what is not a members’ file, in the admin’s language, and lets only admins import', async () => {
    const refusal = async (csv: string) => (await check(csv, 'en')).json().errors?.csv;
    expect(await refusal('')).toBe('The file has nobody in it.');
    expect(await refusal('name,phone\r\nA,1\r\n')).toBe(
      'The file must have the columns username, personalId, personalPhone and personalEmail.',
    );
    expect(await refusal(`${COLUMNS.join(',')}\r\n`)).toBe('The file has nobody in it.');
    expect(await refusal('"unclosed\r\n')).toBe(
      'The file could not be read. Please use a CSV file (UTF-8) with a header row.',
    );
    const member = await approvedMember('Not An Admin');
    const asMember = await call('POST', '/api/admin/imports/check', member.token, { csv: csvOf([sampleMember()]) });
    expect(asMember.statusCode).toBe(403);
  });

  it('creates exactly one account for a row sent by 64 admins’ tabs at once', async () => {
    const person = sampleMember();
    const rows = (await check(csvOf([person]))).json().rows;
    const answers = await Promise.all(Array.from({ length: 64 }, () => importRows(rows)));
    const statuses = answers.map((answer) => answer.json().results?.[0]?.status ?? answer.statusCode);
    expect(statuses.filter((s) => s === 'created')).toHaveLength(1);
    expect(statuses.filter((s) => s !== 'created' && s !== 'imported')).toEqual([]);
  });
});
