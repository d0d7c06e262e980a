/**
 * Bulk onboarding (issue 23): 10,000 members from one CSV, checked (the dry run) and then created
 * in chunks of 250 as the console sends them, each approved and given a set-password e-mail (kept
 * in the outbox: no SMTP here). Beside it, in the same run, the peer: members created one at a
 * time through Manage employee (POST /api/admin/members), as an admin would without an import
 * (200 of them, as a rate). The target: 10,000 rows in under a minute. Asserts the exact outcome.
 */
import { performance } from 'node:perf_hooks';
import { IMPORT_CHUNK_ROWS, IMPORT_COLUMNS } from '@portal/contracts/rules/import';
import { withCheckDigit } from '@portal/platform/testing/accounts';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { ADMIN, loginAs, startCommandApi } from '../command-api/test/harness.ts';
import { onEachDatabase } from './measure.ts';

const ROWS = Number(process.env.IMPORT_ROWS ?? 10_000);
const PEER = 200;

const person = (n: number) => {
  const id = String(n).padStart(6, '0');
  return {
    username: `import${id}`,
    title: 'นาง',
    fullName: `สมศรี นำเข้า ${id}`,
    personalId: withCheckDigit(`210170${id}`),
    personalPhone: `09${id}00`.slice(0, 10),
    personalEmail: `import${id}@example.com`,
    personalAddress: '1 ถนนสุขุมวิท',
    personalProvince: 'กรุงเทพมหานคร',
    personalDistrict: 'วัฒนา',
    personalSubdistrict: 'คลองเตยเหนือ',
    personalPostalCode: '10110',
  };
};

async function run(database: TestDatabase) {
  const h = await startCommandApi(database);
  try {
    const token = (await loginAs(h.app, ADMIN.username, ADMIN.password)).token!;
    const post = (url: string, payload: object) =>
      h.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });
    const people = Array.from({ length: ROWS }, (_, i) => person(i + 1));
    const csv = `\ufeff${IMPORT_COLUMNS.join(',')}\r\n${people.map((p) => IMPORT_COLUMNS.map((c) => p[c]).join(',')).join('\r\n')}\r\n`;

    let started = performance.now();
    const check = await post('/api/admin/imports/check', { csv });
    const checked = check.json();
    const checkMs = performance.now() - started;
    if (checked.summary?.new !== ROWS) throw new Error(`the check found ${JSON.stringify(checked.summary)}`);

    started = performance.now();
    let created = 0;
    for (let from = 0; from < ROWS; from += IMPORT_CHUNK_ROWS) {
      const rows = checked.rows.slice(from, from + IMPORT_CHUNK_ROWS).map((row: { line: number; values: object }) => ({
        line: row.line,
        ...row.values,
      }));
      const answer = await post('/api/admin/imports/rows', { courseId: null, rows });
      created += answer.json().results.filter((r: { status: string }) => r.status === 'created').length;
    }
    const importMs = performance.now() - started;
    if (created !== ROWS) throw new Error(`${created} of ${ROWS} created`);

    started = performance.now();
    for (let n = 0; n < PEER; n += 1) {
      const answer = await post('/api/admin/members', { ...person(ROWS + n + 1), password: 'password-123' });
      if (answer.statusCode !== 201) throw new Error(`Manage employee answered ${answer.statusCode}`);
    }
    const peerMs = performance.now() - started;

    const rate = (rows: number, ms: number) => `${((rows * 1000) / ms).toFixed(0).padStart(6)} members/s`;
    console.log(`${database.name}: ${ROWS} members from one CSV`);
    console.log(
      `  check (dry run, every row)           ${(checkMs / 1000).toFixed(1).padStart(6)} s  ${rate(ROWS, checkMs)}`,
    );
    console.log(
      `  import (chunks of ${IMPORT_CHUNK_ROWS})              ${(importMs / 1000).toFixed(1).padStart(6)} s  ${rate(ROWS, importMs)}`,
    );
    console.log(
      `  check + import, against 60 s         ${((checkMs + importMs) / 1000).toFixed(1).padStart(6)} s  ${checkMs + importMs < 60_000 ? 'under a minute' : 'OVER A MINUTE'}`,
    );
    console.log(`  peer: Manage employee, one at a time ${' '.repeat(8)}  ${rate(PEER, peerMs)}  (${PEER} members)`);
  } finally {
    await h.close();
  }
}

await onEachDatabase(run);
