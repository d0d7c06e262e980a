/**
 * A service of the production shape, from its start until its health check answers 200 (started
 * as the tests start one, deploy/src/testing/portal-process.ts): run as production.sh, the
 * systemd units and the images run it (`node deploy/scripts/service.mjs`, from the bundle of the
 * portal's code), side by side with its TypeScript through tsx (`node --import tsx`, as they ran
 * it before), interleaved (this kind of machine's speed moves from one minute to the next). Each
 * kind of service, BENCH_TIMES pairs each (3), on PostgreSQL (DATABASE_URL) in a database of its
 * own, made and dropped here. The relay needs a broker (KAFKA_BROKERS; skipped without one); the
 * projector is given none (it follows the log in the database).
 * `DATABASE_URL=postgres://... [KAFKA_BROKERS=127.0.0.1:9092] npx tsx bench/service-start.bench.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startService } from '@portal/deploy/testing/portal-process';

const url = process.env.DATABASE_URL;
if (!url) {
  console.log('service start: skipped, set DATABASE_URL (the services run on PostgreSQL)');
  process.exit(0);
}
const times = Number(process.env.BENCH_TIMES ?? 3);
const brokers = process.env.KAFKA_BROKERS;
const SERVICES: Service[] = ['command-api', 'query-api', 'projector', ...(brokers ? (['relay'] as const) : [])];
if (!brokers) console.log('relay: skipped, set KAFKA_BROKERS to start it too');
const DATABASE = 'portal_bench_services';
const topic = `bench.services.${Date.now()}`;

const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${DATABASE}`);
const database = new URL(url);
database.pathname = `/${DATABASE}`;
const uploads = mkdtempSync(join(tmpdir(), 'bench-services-'));
const env = {
  DATABASE_URL: database.toString(),
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  DATA_KEY: randomBytes(32).toString('base64'),
  ADMIN_PASSWORD: 'bench-admin-password-1',
  UPLOADS_DIR: uploads,
};

type Service = Parameters<typeof startService>[0];

/** Seconds from the call until GET /api/health answers 200 (polled every 50 ms), then stopped. */
async function started(service: Service, bundled: boolean): Promise<number> {
  const begun = performance.now();
  // The relay publishes to a topic of this run's, not to a portal's on the same broker.
  const own = { KAFKA_BROKERS: service === 'relay' ? brokers! : '', KAFKA_TOPIC: topic };
  const running = await startService(service, { ...env, ...own }, { bundled });
  const seconds = (performance.now() - begun) / 1000;
  await running.stop();
  return seconds;
}

try {
  // Once each first: the bundle made where it is stale, the schema and the first admin created.
  for (const service of SERVICES) await started(service, true);
  console.log(`A service from its start until its health check answers (${times} interleaved pairs each):`);
  for (const service of SERVICES) {
    const bundle: number[] = [];
    const tsx: number[] = [];
    for (let i = 0; i < times; i++) {
      bundle.push(await started(service, true));
      tsx.push(await started(service, false));
    }
    const list = (seconds: number[]) => seconds.map((s) => s.toFixed(2)).join(', ');
    const median = (seconds: number[]) => [...seconds].sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!;
    console.log(
      `  ${service.padEnd(12)} service.mjs (bundle) ${list(bundle)} s; tsx ${list(tsx)} s; ` +
        `medians ${median(bundle).toFixed(2)} and ${median(tsx).toFixed(2)} s`,
    );
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await admin.end();
  rmSync(uploads, { recursive: true, force: true });
}
