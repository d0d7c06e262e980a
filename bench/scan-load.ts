/**
 * The scan load shared by the scan and Kafka benchmarks: the whole portal runs in this process
 * and listens on a port; many scanners at once, in a second process (scan-load-client.ts), call
 * `PUT /api/admin/updateround/{roundId}` over HTTP, across many rounds. Answers the figures: scans per second, the p50 and p99 answer time,
 * and the p50 and p99 delay from a scan being sent to the read models showing it (the
 * projector's NOTIFY of its checkpoint). The first BENCH_WARM_UP scans warm the portal up (its
 * code compiled, its statements prepared and planned): they are printed apart and left out of
 * the figures, which are those of the scans after them, as a room sees a portal that has been up
 * a while. 500 scans were not enough: on machine V the load client's own CPU a scan, the same
 * work whatever the portal does, was 0.22 ms over the 2,500 scans after them and 0.12 to 0.15 ms
 * after 2,000 (docs/performance.md), so the figures were of code still being compiled.
 *
 * BENCH_ROUNDS (120), BENCH_MEMBERS (50, each enrolled in every course and scanned in every
 * round), BENCH_SCANNERS (concurrent requests, 16), BENCH_WARM_UP (2,000 scans).
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROGRESS_CHANNEL } from '@portal/platform/read-models/checkpoint';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type TestDatabase, testUploadsDir } from '@portal/platform/testing/databases';
import { type PortalOptions, startPortal } from '@portal/deploy/portal';
import { useTestDataKeys } from '@portal/platform/testing/data-keys';
import { cpuMeter } from './measure.ts';
import type { ScanJob, ScanLoadResult, ScanTimes } from './scan-load-client.ts';
import { setUpScanning } from './scan-setup.ts';

useTestDataKeys();

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 120);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 50);
export const SCANNERS = Number(process.env.BENCH_SCANNERS ?? 16);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2000);
const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Runs the load on a fresh database; `label` names the run in the output. */
export async function scanLoad(
  database: TestDatabase,
  label: string,
  options: Pick<PortalOptions, 'kafka'> & { scanners?: number } = {},
) {
  const scanners = options.scanners ?? SCANNERS;
  const { db, url, drop } = await database.open();
  const portal = await startPortal({
    db,
    // As `npm start` runs on PostgreSQL: the projector in a thread of its own.
    projectorThread: url ? { connectionString: url } : undefined,
    sessionSecret: 'bench-session-secret-of-enough-length',
    admin: ADMIN,
    uploadsDir: testUploadsDir(),
    kafka: options.kafka ?? null,
  });
  const base = await portal.app.listen({ port: 0, host: '127.0.0.1' });
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
  try {
    process.stdout.write(`${label}: setting up ${ROUNDS} rounds and ${MEMBERS} members...`);
    const { partner, members, rounds } = await setUpScanning(call, ADMIN, {
      rounds: ROUNDS,
      members: MEMBERS,
      roundOpenForMs: 3600_000,
    });
    console.log(' done');

    // When each position became visible in the read models, in ms since the epoch (the load
    // client's clock is the same machine's).
    const visible: { position: number; at: number }[] = [];
    const unlisten = await db.listen(PROGRESS_CHANNEL, (payload) =>
      visible.push({ position: Number(payload), at: performance.timeOrigin + performance.now() }),
    );
    const work = rounds.flatMap((roundId) => members.map((member) => ({ roundId, memberId: member.id })));
    work.sort(() => Math.random() - 0.5);
    if (work.length <= WARM_UP) throw new Error(`${work.length} scans leave none after a warm-up of ${WARM_UP}`);
    const client = startLoadClient({ base, token: partner.token, scanners, warmUp: WARM_UP, work });
    await client.measuring;
    const cpu = cpuMeter();
    const { scans: all, cpuMs: clientMs } = await client.result;
    const last = Math.max(...all.map((scan) => scan.position));
    for (let waited = 0; !visible.some((v) => v.position >= last) && waited < 30_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Until the last scan is in the read models: the projector's work is part of a scan's cost.
    const { ownMs, postgresMs } = cpu();
    await unlisten();
    const toVisible = (scans: ScanTimes[]) => {
      const delays = scans
        .map((scan) => (visible.find((v) => v.position >= scan.position)?.at ?? Infinity) - scan.sent)
        .sort((a, b) => a - b);
      return `p50 ${percentile(delays, 0.5).toFixed(0)} ms, p99 ${percentile(delays, 0.99).toFixed(0)} ms`;
    };
    const warmUp = all.filter((scan) => scan.warmUp);
    const scans = all.filter((scan) => !scan.warmUp);
    if (warmUp.length) {
      console.log(
        `  warm-up, not counted: ${warmUp.length} scans, ${scanFigures(warmUp).rate}; to visible ${toVisible(warmUp)}`,
      );
    }
    const measured = scanFigures(scans, ownMs + postgresMs + clientMs);
    console.log(
      [
        `  ${scans.length} scans (${measured.accepted} accepted) by ${scanners} scanners over ${ROUNDS} rounds in ${measured.seconds.toFixed(1)} s`,
        `  ${measured.rate}`,
        `  scan to visible in the read models: ${toVisible(scans)}`,
        `  CPU per scan: ${(ownMs / scans.length).toFixed(2)} ms in the portal's process (all its threads)` +
          (url ? `, ${(postgresMs / scans.length).toFixed(2)} ms in PostgreSQL's processes` : '') +
          `, ${(clientMs / scans.length).toFixed(2)} ms in the load's: ${measured.cpuPerScan}`,
      ].join('\n'),
    );
    if (db.kind === 'pglite') console.log(await plannedAnew(db));
    return measured;
  } finally {
    await portal.close();
    await drop();
  }
}

/** A run's figures: its rate, answer times and, given the CPU it took in all (ms), that per scan. */
export interface ScanFigures {
  seconds: number;
  perSecond: number;
  accepted: number;
  /** "N scans/s, answer p50 .. ms, p99 .. ms" */
  rate: string;
  /** "N ms a scan in all (every process)" */
  cpuPerScan: string;
}

export function scanFigures(scans: ScanTimes[], cpuMs?: number): ScanFigures {
  const seconds =
    (Math.max(...scans.map((scan) => scan.answered)) - Math.min(...scans.map((scan) => scan.sent))) / 1000;
  const latencies = scans.map((scan) => scan.answered - scan.sent).sort((a, b) => a - b);
  const at = (p: number) => percentile(latencies, p).toFixed(0);
  const perSecond = scans.length / seconds;
  return {
    seconds,
    perSecond,
    accepted: scans.filter((scan) => scan.status === 200).length,
    rate: `${perSecond.toFixed(0)} scans/s, answer p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
    cpuPerScan: cpuMs === undefined ? '' : `${(cpuMs / scans.length).toFixed(2)} ms a scan in all (every process)`,
  };
}

/**
 * PGlite keeps each statement prepared (platform/src/store/pglite-statements.ts), but PostgreSQL
 * plans one again on each call when it finds its generic plan dearer than the plans made for the
 * values given (list parameters, most often): those run at least 100 times in the run.
 */
async function plannedAnew(db: SqlDatabase) {
  const rows = await db.query<{ statement: string }>(
    `SELECT statement FROM pg_prepared_statements WHERE custom_plans >= 100 AND custom_plans > generic_plans
      ORDER BY custom_plans DESC`,
  );
  const named = rows.map(({ statement }) => `    ${statement.replace(/\s+/g, ' ').trim().slice(0, 100)}`);
  return [`  statements planned anew on most calls (PGlite): ${rows.length}`, ...named].join('\n');
}

/**
 * The scanners in a second process (scan-load-client.ts), as phones are apart from the portal:
 * in this one, their HTTP client took a quarter of the thread the portal answers on. `measuring`
 * resolves once the warm-up is over (or the process stopped), `result` with its figures.
 */
export function startLoadClient(job: ScanJob) {
  const client = spawn(
    resolve(import.meta.dirname, '../node_modules/.bin/tsx'),
    [resolve(import.meta.dirname, 'scan-load-client.ts')],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  client.stdout.setEncoding('utf8');
  let warm = () => {};
  const measuring = new Promise<void>((done) => (warm = done));
  client.stdout.on('data', (chunk: string) => {
    output += chunk;
    if (output.includes('measuring\n')) warm();
  });
  client.stdin.end(JSON.stringify(job));
  const result = new Promise<ScanLoadResult>((done, fail) =>
    client.on('exit', (code) => {
      warm(); // a client that stopped, or had no scans after the warm-up: `result` says so
      if (code === 0) done(JSON.parse(output.trim().split('\n').at(-1)!) as ScanLoadResult);
      else fail(new Error(`the load client stopped with ${code}`));
    }),
  );
  result.catch(() => {}); // awaited after `measuring`
  return { measuring, result };
}
