/**
 * Reports under load: a portal with BENCH_MEMBERS members (100,000) and BENCH_SCANS scan attempts
 * (1,000,000) in its read models answers the registration report (a page, a name search, a sort
 * by name) and the scan audit while a second process (report-load-client.ts, open loop) sends
 * them at BENCH_RATE requests/s in all (200), for BENCH_SECONDS (30) after a 5-second warm-up;
 * then the report sorted by name alone, at BENCH_NAME_RATE (2) requests/s for 10 s.
 * Prints each kind's p50 and p99 answer time over HTTP and whether it met the target (p99 <= 30
 * ms), and the CPU a request cost the portal (and PostgreSQL), on PGlite and, when DATABASE_URL is
 * set, PostgreSQL. `npx tsx bench/reports.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { startPortal } from '@portal/deploy/portal';
import { type TestDatabase, testUploadsDir } from '@portal/platform/testing/databases';
import { cpuMeter, onEachDatabase } from './measure.ts';
import { reportRequests, seedMembers, seedScans, sortedByName } from './report-data.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const SCANS = Number(process.env.BENCH_SCANS ?? 1_000_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const NAME_RATE = Number(process.env.BENCH_NAME_RATE ?? 2);
const TARGET_P99_MS = 30;
const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };

interface KindFigures {
  kind: string;
  answered: number;
  p50: number;
  p99: number;
  max: number;
  non200: number;
}

function load(base: string, token: string, seconds: number, set: 'mix' | 'name', rate: number): Promise<KindFigures[]> {
  const perKind = rate / Object.keys(set === 'mix' ? reportRequests(MEMBERS) : sortedByName()).length;
  const client = spawn(
    resolve(import.meta.dirname, '../node_modules/.bin/tsx'),
    [
      resolve(import.meta.dirname, 'report-load-client.ts'),
      base,
      token,
      String(perKind),
      String(seconds),
      String(MEMBERS),
      set,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  client.stdout.on('data', (chunk) => (output += chunk));
  return new Promise((done, fail) =>
    client.on('exit', (code) =>
      code === 0
        ? done(
            output
              .split('\n')
              .filter((line) => line.startsWith('{'))
              .map((line) => JSON.parse(line) as KindFigures),
          )
        : fail(new Error(`the load client stopped with ${code}`)),
    ),
  );
}

async function run(database: TestDatabase) {
  const { db, drop } = await database.open();
  const portal = await startPortal({
    db,
    sessionSecret: 'bench-session-secret-of-enough-length',
    admin: ADMIN,
    uploadsDir: testUploadsDir(),
    kafka: null,
  });
  try {
    const started = performance.now();
    const line = (text: string) => process.stdout.write(`\r${database.name}: ${text}`.padEnd(70));
    await seedMembers(db, MEMBERS, (done) => line(`${done} of ${MEMBERS} members`));
    await seedScans(db, SCANS, MEMBERS, 100, (done) => line(`${done} of ${SCANS} scan attempts`));
    line(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
    const base = await portal.app.listen({ port: 0, host: '127.0.0.1' });
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const token = ((await login.json()) as { partner: { token: string } }).partner.token;
    await load(base, token, 5, 'mix', RATE);
    const cpu = cpuMeter();
    const figures = await load(base, token, SECONDS, 'mix', RATE);
    const { ownMs, postgresMs } = cpu();
    const answered = figures.reduce((sum, f) => sum + f.answered, 0);
    console.log(`  ${RATE} requests/s in all for ${SECONDS} s, from a second process:`);
    print(figures);
    // Steadier than the percentiles on a machine whose speed varies: the work a request costs.
    console.log(
      `  CPU per request: ${(ownMs / answered).toFixed(2)} ms in the portal's process (all its threads)` +
        (database.name === 'postgres' ? `, ${(postgresMs / answered).toFixed(2)} ms in PostgreSQL's processes` : ''),
    );
    const byName = await load(base, token, 10, 'name', NAME_RATE);
    console.log(`  alone, ${NAME_RATE} requests/s for 10 s (names are sealed: a sort by name opens every name):`);
    print(byName);
  } finally {
    await portal.close();
    await drop();
  }
}

function print(figures: KindFigures[]) {
  for (const f of figures) {
    const met = f.p99 <= TARGET_P99_MS && f.non200 === 0 ? 'met' : 'NOT met';
    console.log(
      `  ${f.kind.padEnd(38)} p50 ${String(f.p50).padStart(4)} ms  p99 ${String(f.p99).padStart(4)} ms  ` +
        `max ${String(f.max).padStart(5)} ms  ${f.answered} answered${f.non200 ? `, ${f.non200} not 200` : ''}  (${met})`,
    );
  }
}

console.log(
  `Reports under load: ${MEMBERS} members, ${SCANS} scan attempts; target p99 <= ${TARGET_P99_MS} ms at ${RATE} requests/s`,
);
await onEachDatabase(run);
