/**
 * The event log side by side, in one run, on one PostgreSQL, at one concurrency: single-event
 * appends to new streams by WRITERS concurrent writers for SECONDS each, measured for
 *   1. the ceiling: pgbench inserting one event-sized row per transaction (no store at all),
 *   2. Emmett's PostgreSQL event store (@event-driven-io/emmett-postgresql), and
 *   3. this portal's store,
 * each in its own fresh database. Prints each rate, p50/p99 and the ratios. `npm run bench:compare`
 * (needs DATABASE_URL; pgbench from PostgreSQL's client package, found on PATH or under
 * /usr/lib/postgresql/<version>/bin).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import type { NewEvent } from '@portal/contracts/envelope';
import { createEventStore } from '@portal/platform/store/event-store';
import { connectPostgres } from '@portal/platform/store/postgres';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { useTestDataKeys } from '@portal/platform/testing/data-keys';

const WRITERS = Number(process.env.BENCH_WRITERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_SECONDS = 2;
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('bench:compare needs DATABASE_URL (a PostgreSQL server it may create databases on)');
  process.exit(2);
}
useTestDataKeys();

/** An event the size of a scan: the same payload for all three. */
const payload = { n: 0, note: 'a scan of a member by a partner', roundId: 'a5f0c2de-63f1-4d0e-9a55-1f1d0c1b2a3e' };

interface Figures {
  name: string;
  appends: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

function figuresOf(name: string, latenciesMs: number[], seconds: number): Figures {
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    name,
    appends: sorted.length,
    perSecond: sorted.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

async function withDatabase<T>(label: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `bench_${label}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** WRITERS loops appending for `seconds`; answers each append's latency in ms. */
async function drive(append: (writer: number, n: number) => Promise<unknown>, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let n = 0; performance.now() < until; n++) {
        const started = performance.now();
        await append(writer, n);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function measure(name: string, append: (writer: number, n: number) => Promise<unknown>): Promise<Figures> {
  await drive((writer, n) => append(writer, -1 - n), WARMUP_SECONDS);
  const started = performance.now();
  const latencies = await drive(append, SECONDS);
  return figuresOf(name, latencies, (performance.now() - started) / 1000);
}

function pgbenchPath(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v pgbench'], { encoding: 'utf8' }).trim();
  } catch {
    const root = '/usr/lib/postgresql';
    const found = existsSync(root)
      ? readdirSync(root)
          .map((version) => join(root, version, 'bin', 'pgbench'))
          .find((path) => existsSync(path))
      : undefined;
    if (!found) throw new Error('pgbench not found: install PostgreSQL client package (postgresql-client)');
    return found;
  }
}

/** The ceiling: one INSERT of an event-sized row per transaction, prepared, WRITERS clients. */
const ceiling = () =>
  withDatabase('ceiling', async (url) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE TABLE events (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, type text NOT NULL,
      data jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    await client.end();
    const dir = mkdtempSync(join(tmpdir(), 'pgbench-'));
    try {
      const script = join(dir, 'insert.sql');
      writeFileSync(
        script,
        `INSERT INTO events (stream_id, type, data) VALUES ('bench-' || :client_id || '-' || random(), 'BenchEvent', '${JSON.stringify(payload)}');\n`,
      );
      const run = (seconds: number, log: boolean) =>
        new Promise<string>((resolve, reject) => {
          const args = ['-n', '-M', 'prepared', '-c', String(WRITERS), '-j', '2', '-T', String(seconds), '-f', script];
          if (log) args.push('-l', '--log-prefix', join(dir, 'latency'));
          const child = spawn(pgbenchPath(), [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          child.stdout.on('data', (chunk) => (out += chunk));
          child.stderr.on('data', (chunk) => (out += chunk));
          child.on('error', reject);
          child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`pgbench failed:\n${out}`))));
        });
      await run(WARMUP_SECONDS, false);
      const out = await run(SECONDS, true);
      // Each log line: client transaction latency_us script epoch_s epoch_us.
      const latencies = readdirSync(dir)
        .filter((file) => file.startsWith('latency'))
        .flatMap((file) =>
          readFileSync(join(dir, file), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => Number(line.split(' ')[2]) / 1000),
        );
      const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
      return { ...figuresOf('ceiling (pgbench INSERT)', latencies, SECONDS), perSecond: tps };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

/** Each store runs in a child process of its own (Emmett's driver sets pg's global JSON parsers). */
const contenders: Record<string, (url: string) => Promise<Figures>> = {
  async emmett(url) {
    const store = getPostgreSQLEventStore(url);
    await store.schema.migrate();
    return measure('Emmett (emmett-postgresql 0.42)', (writer, n) =>
      store.appendToStream(`bench-${writer}-${n}`, [{ type: 'BenchEvent', data: { ...payload, n } }], {
        expectedStreamVersion: 'STREAM_DOES_NOT_EXIST',
      }),
    );
  },
  async ours(url) {
    const db = connectPostgres({ connectionString: url, max: WRITERS + 2 });
    await createEventStoreSchema(db);
    const store = createEventStore(db);
    const event = (n: number): NewEvent => ({ type: 'BenchEvent', schemaVersion: 1, data: { ...payload, n } });
    return measure('this portal', (writer, n) =>
      store.append(`bench-${writer}-${n}`, [event(n)], { expectedRevision: 'no_stream' }),
    );
  },
};

const inChild = (contender: string) =>
  withDatabase(
    contender,
    (url) =>
      new Promise<Figures>((resolve, reject) => {
        const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
          env: { ...process.env, BENCH_CONTENDER: contender, BENCH_URL: url },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0 ? resolve(JSON.parse(out) as Figures) : reject(new Error(`${contender} failed (exit ${code})`)),
        );
      }),
  );

const row = (f: Figures, extra: string) =>
  `${f.name.padEnd(34)} ${f.perSecond.toFixed(0).padStart(7)}/s  p50 ${f.p50.toFixed(2).padStart(6)} ms  p99 ${f.p99
    .toFixed(2)
    .padStart(6)} ms  ${extra}`;

const contender = process.env.BENCH_CONTENDER;
if (contender) {
  process.stdout.write(JSON.stringify(await contenders[contender]!(process.env.BENCH_URL!)));
  process.exit(0);
}

console.log(
  `Event log side by side: ${WRITERS} writers, single-event appends to new streams, ${SECONDS} s each ` +
    `(after ${WARMUP_SECONDS} s warm-up), one PostgreSQL, a fresh database each`,
);
const top = await ceiling();
console.log(row(top, '(the ceiling)'));
const peer = await inChild('emmett');
console.log(row(peer, `${(peer.perSecond / top.perSecond).toFixed(2)} of the ceiling`));
const mine = await inChild('ours');
console.log(
  row(
    mine,
    `${(mine.perSecond / peer.perSecond).toFixed(2)}x Emmett, ${(mine.perSecond / top.perSecond).toFixed(2)} of the ceiling`,
  ),
);
const targets = mine.perSecond >= 1.5 * peer.perSecond && mine.perSecond >= 0.5 * top.perSecond;
console.log(`targets (>= 1.5x Emmett and >= 0.5 of the ceiling): ${targets ? 'met' : 'NOT met'}`);
