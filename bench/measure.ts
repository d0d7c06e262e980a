import { readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { pgliteDatabase, postgresDatabase } from '@portal/platform/testing/databases';
import { useTestDataKeys } from '@portal/platform/testing/data-keys';

/** Runs `query` five times; answers the median time in ms and the rows of the last answer. */
export async function median(query: () => Promise<number>): Promise<{ ms: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    rows = await query();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[2]!, rows };
}

export const figure = (label: string, { ms, rows }: { ms: number; rows: number }) =>
  `  ${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  (${rows} rows)`;

/**
 * Runs the benchmark on PGlite and, when DATABASE_URL is set, on PostgreSQL; BENCH_ONLY=pglite or
 * BENCH_ONLY=postgres runs it on that one alone.
 */
export async function onEachDatabase(run: (database: TestDatabase) => Promise<void>): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== 'postgres') await run(pgliteDatabase);
  if (only === 'pglite') return;
  if (process.env.DATABASE_URL) await run(postgresDatabase);
  else console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too');
}

/** What a newcomer's shell holds that the portal may use: the system's, none of the portal's own settings. */
const SHELL_VARIABLES = ['PATH', 'HOME', 'USER', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

/**
 * The environment of a portal started as `npm start` starts it on a clean clone: the embedded
 * database, no broker, no mail server, no keys or secrets given, only `extra` set. A list of what
 * is kept, not of what is taken out: benchmarks run with DATABASE_URL set measured the portal on
 * PostgreSQL instead (and failed to start on a database whose keys another key-encryption key had
 * wrapped), and a caller's SMTP_URL or READ_DATABASE_URL would have been used as well.
 * PORTAL_PGLITE_SNAPSHOT_DIR is kept: it is set only to compare snapshots on purpose.
 */
export function embeddedPortalEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const kept = [...SHELL_VARIABLES, 'PORTAL_PGLITE_SNAPSHOT_DIR'].filter((name) => process.env[name] !== undefined);
  return { ...Object.fromEntries(kept.map((name) => [name, process.env[name]])), ...extra };
}

// Benchmarks seal personal data as the services do, with a test key-encryption key.
useTestDataKeys();

/**
 * CPU time spent from now until `stop()`, in ms: this process's (every thread: the portal, the
 * database's or projector's thread, the load generator) and PostgreSQL's server processes'
 * (read from /proc; 0 where there is none). Steadier than a rate on a machine whose speed varies:
 * the work a scan costs, whatever else the machine is doing.
 */
export function cpuMeter() {
  const ownStart = process.cpuUsage();
  const serverStart = postgresCpuMs();
  return () => {
    const own = process.cpuUsage(ownStart);
    return { ownMs: (own.user + own.system) / 1000, postgresMs: postgresCpuMs() - serverStart };
  };
}

/** CPU time of every process named postgres, in ms (its children included once they end and are reaped). */
function postgresCpuMs(): number {
  const tick = 1000 / 100; // USER_HZ, 100 on Linux
  let total = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0; // no /proc: not Linux
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name !== 'postgres') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime, stime, cutime and cstime are fields 14 to 17 of stat; here 0-based after the name,
      // 11 to 14. The children's (cutime, cstime) are the postmaster's backends and workers that
      // ended and were reaped: without them a backend ending in between took its time away.
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * tick;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
