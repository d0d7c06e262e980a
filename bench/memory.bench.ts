/**
 * The embedded portal's memory, as `npm start` runs it (one process, PGlite under a fresh
 * DATA_DIR): its resident set (VmRSS from /proc) idle after start, then while scans arrive at a
 * steady BENCH_SCAN_RATE (50/s) for BENCH_MINUTES (10) over HTTP from this process, sampled every
 * 10 s; prints each sample, the growth over the soak's second half in MB per minute (a least-
 * squares slope, so one garbage collection does not decide it) and whether it grew. Linux only.
 * `npx tsx bench/memory.bench.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setUpScanning } from './scan-setup.ts';
import { freePort } from '@portal/deploy/testing/portal-process';
import { embeddedPortalEnv } from './measure.ts';

const RATE = Number(process.env.BENCH_SCAN_RATE ?? 50);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const ROUNDS = 20;
const MEMBERS = 50;
const ADMIN = { username: 'admin01', password: 'bench-admin-password' };
/** Growth below this over the second half is noise (a heap settling), not a leak. */
const FLAT_MB_PER_MINUTE = 1;

const root = resolve(import.meta.dirname, '..');
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'portal-memory-bench-'));
const portal = spawn(process.execPath, ['--import', 'tsx', join(root, 'deploy/src/embedded.ts')], {
  cwd: root,
  env: embeddedPortalEnv({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    HTTPS_PORT: 'off',
  }),
  stdio: ['ignore', 'pipe', 'inherit'],
});
const residentMb = () => {
  const line = readFileSync(`/proc/${portal.pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line![1]) / 1024;
};

try {
  await new Promise<void>((done, fail) => {
    let output = '';
    portal.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('is running')) done();
    });
    portal.on('exit', (code) => fail(new Error(`the portal stopped (${code}) before it was running`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        origin: base,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  // Idle: started, nothing asked yet, given a few seconds to settle.
  await new Promise((done) => setTimeout(done, 5000));
  const idle = residentMb();

  process.stdout.write(`setting up ${ROUNDS} rounds and ${MEMBERS} members...`);
  const { partner, members, rounds } = await setUpScanning(call, ADMIN, {
    rounds: ROUNDS,
    members: MEMBERS,
    roundOpenForMs: 24 * 3600_000,
  });
  console.log(' done');

  // Steady scans: the first of each member in each round is accepted, later ones are refused as
  // duplicates (still an event, an audit row, an answer); both paths are what a real room sends.
  const samples: { minute: number; mb: number }[] = [];
  const started = performance.now();
  const statuses = new Map<number, number>();
  const pending = new Set<Promise<void>>();
  const interval = 1000 / RATE;
  const total = Math.round(RATE * 60 * MINUTES);
  let nextSample = 0;
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    const minute = (performance.now() - started) / 60_000;
    if (minute >= nextSample) {
      samples.push({ minute, mb: residentMb() });
      console.log(`  ${minute.toFixed(1).padStart(5)} min  ${samples.at(-1)!.mb.toFixed(0)} MB`);
      nextSample += 1 / 6;
    }
    const scan = call(
      'PUT',
      `/api/admin/updateround/${rounds[i % ROUNDS]}`,
      { userId: members[Math.floor(i / ROUNDS) % MEMBERS]!.id, method: 'typed', deviceId: 'soak' },
      partner.token,
    ).then(({ status }) => void statuses.set(status, (statuses.get(status) ?? 0) + 1));
    pending.add(scan);
    void scan.finally(() => pending.delete(scan));
  }
  await Promise.all(pending);
  samples.push({ minute: (performance.now() - started) / 60_000, mb: residentMb() });

  const half = samples.filter((sample) => sample.minute >= MINUTES / 2);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mx = mean(half.map((s) => s.minute));
  const my = mean(half.map((s) => s.mb));
  const slope =
    half.reduce((sum, s) => sum + (s.minute - mx) * (s.mb - my), 0) /
    half.reduce((sum, s) => sum + (s.minute - mx) ** 2, 0);
  const answered = [...statuses].map(([status, n]) => `${n} x ${status}`).join(', ');
  console.log(
    [
      `Memory of the embedded portal (PGlite), ${RATE} scans/s for ${MINUTES} min (${answered}):`,
      `  idle after start: ${idle.toFixed(0)} MB`,
      `  under the scan load: ${Math.min(...samples.map((s) => s.mb)).toFixed(0)} to ${Math.max(...samples.map((s) => s.mb)).toFixed(0)} MB, at the end ${samples.at(-1)!.mb.toFixed(0)} MB`,
      `  growth over the second half: ${slope.toFixed(2)} MB/min (${slope < FLAT_MB_PER_MINUTE ? 'not growing' : 'GROWING'})`,
    ].join('\n'),
  );
} finally {
  portal.kill('SIGTERM');
  await new Promise((done) => portal.once('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
