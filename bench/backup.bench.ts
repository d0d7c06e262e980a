/**
 * Backup and restore at scale: generates a realistic log (./realistic-log.ts; BENCH_EVENTS,
 * 1,000,000 on PostgreSQL and 200,000 on PGlite by default), then times `npm run backup`'s work
 * (deploy/src/backup/backup.ts) beside pg_dump of the same schemas (PostgreSQL only: the ceiling
 * of a logical copy), the restore into an empty database, and the rebuild of the read models that
 * follows it. Prints events/s and the time per million events. `npx tsx bench/backup.bench.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { prepareCommandTables } from '@portal/command-api/app';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { projections } from '@portal/projector/projections/index';
import { rebuildReadModels } from '@portal/projector/rebuild';
import { restoreBackup, writeBackup } from '@portal/deploy/backup/backup';
import { onEachDatabase } from './measure.ts';
import { generateRealisticLog } from './realistic-log.ts';

const perMillion = (seconds: number, events: number) =>
  `${((seconds * 1_000_000) / events).toFixed(0)} s per million events`;
const line = (label: string, seconds: number, events: number, extra = '') =>
  console.log(
    `  ${label.padEnd(34)} ${seconds.toFixed(1).padStart(7)} s  ${Math.round(events / seconds)
      .toLocaleString('en')
      .padStart(8)} events/s  (${perMillion(seconds, events)})${extra}`,
  );

async function run(database: TestDatabase) {
  const target = Number(process.env.BENCH_EVENTS ?? (database.name === 'postgres' ? 1_000_000 : 200_000));
  const dir = mkdtempSync(join(tmpdir(), 'backup-bench-'));
  const source = await database.open();
  const copy = await database.open();
  try {
    await createEventStoreSchema(source.db);
    await prepareCommandTables(source.db);
    const log = await generateRealisticLog(source.db, target);
    console.log(`\n${database.name}: ${log.events.toLocaleString('en')} events`);
    const file = join(dir, 'portal.backup.gz');

    let started = performance.now();
    await writeBackup(source.db, join(dir, 'no-uploads'), file);
    const backup = (performance.now() - started) / 1000;
    line('npm run backup', backup, log.events, `, ${(statSync(file).size / 1e6).toFixed(0)} MB`);

    if (source.url) {
      const dump = join(dir, 'portal.dump');
      started = performance.now();
      execFileSync('/usr/lib/postgresql/15/bin/pg_dump', [
        ...['-Fc', '-f', dump, '-n', 'es', '-n', 'cmd', '-n', 'privacy', '-n', 'auth'],
        source.url,
      ]);
      const dumped = (performance.now() - started) / 1000;
      line('pg_dump -Fc, the same schemas', dumped, log.events, `, ${(statSync(dump).size / 1e6).toFixed(0)} MB`);
    }

    started = performance.now();
    await restoreBackup(copy.db, file, join(dir, 'uploads'), async (db) => {
      await createEventStoreSchema(db);
      await prepareCommandTables(db);
    });
    const restore = (performance.now() - started) / 1000;
    line('npm run restore: loading', restore, log.events);
    started = performance.now();
    await rebuildReadModels({ db: copy.db, store: createEventStore(copy.db), projections });
    const rebuild = (performance.now() - started) / 1000;
    line('npm run restore: the rebuild', rebuild, log.events);
    line('restore, in all', restore + rebuild, log.events);
  } finally {
    await copy.drop();
    await source.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await onEachDatabase(run);
