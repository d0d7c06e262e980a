/**
 * Rebuilds of one kept log, to compare two versions of the code on the same log (a machine whose
 * speed varies needs interleaved runs, and generating a log anew each time costs more than the
 * rebuild). The log is generated once (./realistic-log.ts, BENCH_EVENTS, 300,000 by default)
 * into a database that is kept: on PGlite the folder BENCH_KEEP_DIR (/tmp/portal-rebuild-pglite),
 * on PostgreSQL the database portal_bench_rebuild. Then every read model is rebuilt BENCH_TIMES
 * times (3), each printing its rate and the CPU it took: the portal's process (every thread) and
 * PostgreSQL's. `npx tsx bench/rebuild-again.bench.ts` (BENCH_ONLY=pglite|postgres); drop the kept
 * log with BENCH_DROP=1.
 */
import { existsSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { connectPostgres } from '@portal/platform/store/postgres';
import { openPglite } from '@portal/platform/store/pglite';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { rebuildWhereTheDatabaseIs } from '@portal/projector/thread/rebuild-beside';
import { cpuMeter } from './measure.ts';
import { generateRealisticLog } from './realistic-log.ts';

const target = Number(process.env.BENCH_EVENTS ?? 300_000);
const times = Number(process.env.BENCH_TIMES ?? 3);
const dropping = process.env.BENCH_DROP === '1';
const folder = process.env.BENCH_KEEP_DIR ?? '/tmp/portal-rebuild-pglite';
const KEPT = 'portal_bench_rebuild';

async function keptPostgres(url: string): Promise<SqlDatabase | null> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    if (dropping) {
      await admin.query(`DROP DATABASE IF EXISTS ${KEPT} WITH (FORCE)`);
      console.log(`postgres: the kept log (database ${KEPT}) dropped`);
      return null;
    }
    const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [KEPT]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${KEPT}`);
  } finally {
    await admin.end();
  }
  const kept = new URL(url);
  kept.pathname = `/${KEPT}`;
  return connectPostgres({ connectionString: kept.toString(), max: 20 });
}

async function keptPglite(): Promise<SqlDatabase | null> {
  if (dropping) {
    rmSync(folder, { recursive: true, force: true });
    console.log(`pglite: the kept log (${folder}) dropped`);
    return null;
  }
  return openPglite(folder);
}

async function run(name: string, db: SqlDatabase) {
  try {
    await createEventStoreSchema(db);
    const [{ events }] = (await db.query<{ events: string }>(`SELECT count(*)::text AS events FROM es.events`)) as [
      { events: string },
    ];
    let count = Number(events);
    if (count === 0) {
      const started = performance.now();
      count = (await generateRealisticLog(db, target)).events;
      console.log(
        `${name}: ${count.toLocaleString('en')} events generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    } else console.log(`${name}: the kept log of ${count.toLocaleString('en')} events`);
    for (let i = 0; i < times; i++) {
      const cpu = cpuMeter();
      const started = performance.now();
      let filled = started;
      await rebuildWhereTheDatabaseIs(db, { onIndexing: () => (filled = performance.now()) });
      const ended = performance.now();
      const seconds = (ended - started) / 1000;
      const { ownMs, postgresMs } = cpu();
      console.log(
        `  rebuild ${i + 1}: ${(count / seconds).toFixed(0)} events/s (${seconds.toFixed(1)} s: filled in ` +
          `${((filled - started) / 1000).toFixed(1)} s, indexed and swapped in ${((ended - filled) / 1000).toFixed(1)} s); CPU: ` +
          `the portal's process ${(ownMs / 1000).toFixed(1)} s, PostgreSQL's ${(postgresMs / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await db.close();
  }
}

const only = process.env.BENCH_ONLY;
if (only !== 'postgres') {
  if (!dropping && !existsSync(folder)) console.log(`pglite: a new kept log in ${folder}`);
  const db = await keptPglite();
  if (db) await run('pglite', db);
}
if (only !== 'pglite') {
  const url = process.env.DATABASE_URL;
  if (!url) console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too');
  else {
    const db = await keptPostgres(url);
    if (db) await run('postgres', db);
  }
}
