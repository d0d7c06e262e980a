/**
 * Rebuilds at scale: generates a realistic log (./realistic-log.ts; BENCH_EVENTS, 1,000,000 on
 * PostgreSQL and 200,000 on PGlite by default), lets the live projector build the read models
 * (timed, as a portal started on an existing log would), then rebuilds every read model from the
 * log with the progress bar (timed), and checks the rebuilt read models equal the live ones row
 * for row. Prints events/s for each and the time 10 million events would take.
 * `npx tsx bench/rebuild.bench.ts` (PostgreSQL when DATABASE_URL is set).
 */
import { performance } from 'node:perf_hooks';
import { readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { createEventStore } from '@portal/platform/store/event-store';
import { START } from '@portal/platform/store/port';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { projections } from '@portal/projector/projections/index';
import { startProjector } from '@portal/projector/projector';
import { startProjectorThread } from '@portal/projector/thread/projector-thread';
import { rebuildWhereTheDatabaseIs } from '@portal/projector/thread/rebuild-beside';
import { onEachDatabase } from './measure.ts';
import { generateRealisticLog } from './realistic-log.ts';

const progressLine = (label: string, done: number, total: number, started: number) => {
  const seconds = (performance.now() - started) / 1000;
  const rate = done / Math.max(seconds, 0.001);
  process.stdout.write(
    `\r  ${label}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')} events, ${rate.toFixed(0)}/s   `,
  );
};

/** Every read model as the query side reads it (sealed columns opened), one digest per relation. */
async function digest(db: SqlDatabase): Promise<Map<string, string>> {
  const relations = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'rm'
        AND table_name NOT LIKE '%\\_sealed' ORDER BY table_name`,
  );
  const digests = new Map<string, string>();
  for (const { name } of relations) {
    // The checkpoint's own time says when it was written, not what the read models hold.
    const relation =
      name === 'checkpoints' ? `(SELECT name, transaction_id, position FROM rm.checkpoints)` : `rm.${name}`;
    const [row] = await db.query<{ rows: string; digest: string | null }>(
      `SELECT count(*)::text AS rows, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${relation} t`,
    );
    digests.set(name, `${row!.rows} rows ${row!.digest ?? ''}`);
  }
  return digests;
}

async function run(database: TestDatabase) {
  const target = Number(process.env.BENCH_EVENTS ?? (database.name === 'postgres' ? 1_000_000 : 200_000));
  const { db, drop } = await database.open();
  try {
    await createEventStoreSchema(db);
    const store = createEventStore(db);
    let started = performance.now();
    const log = await generateRealisticLog(db, target, (written) =>
      progressLine('generating', written, target, started),
    );
    const generated = (performance.now() - started) / 1000;
    console.log(
      `\n${database.name}: ${log.events.toLocaleString('en')} events (${log.members.toLocaleString('en')} members, ` +
        `${log.courses} courses) generated in ${generated.toFixed(1)} s`,
    );

    started = performance.now();
    // Where the portal runs it: on PGlite in the embedded database's thread.
    const projector = db.startBeside
      ? await startProjectorThread({ database: { embedded: db }, pollMs: 50 })
      : await startProjector({ source: store, target: db, projections, pollMs: 50 });
    const last = (await store.lagBehind(START)).events;
    for (;;) {
      const { events } = await store.lagBehind(await readCheckpoint(db, 'rm'));
      progressLine('live projector', last - events, last, started);
      if (events === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await projector.stop();
    const live = (performance.now() - started) / 1000;
    console.log(`\n  live projector: ${(log.events / live).toFixed(0)} events/s (${live.toFixed(1)} s)`);
    await unlockReadModels(db);
    const before = await digest(db);

    started = performance.now();
    await rebuildWhereTheDatabaseIs(db, {
      onProgress: (done, total) => progressLine('rebuild', done, total, started),
    });
    const rebuilt = (performance.now() - started) / 1000;
    const rate = log.events / rebuilt;
    console.log(
      `\n  rebuild: ${rate.toFixed(0)} events/s (${rebuilt.toFixed(1)} s); 10 million events: about ` +
        `${(10_000_000 / rate / 60).toFixed(0)} min`,
    );
    await unlockReadModels(db);
    const after = await digest(db);
    const differing = [...before].filter(([name, value]) => after.get(name) !== value).map(([name]) => name);
    if (differing.length > 0 || after.size !== before.size) {
      console.error(`  REBUILT READ MODELS DIFFER from the live ones: ${differing.join(', ')}`);
      process.exitCode = 1;
    } else {
      console.log(`  rebuilt read models equal the live ones row for row (${before.size} relations)`);
    }
  } finally {
    await drop();
  }
}

console.log('Rebuild benchmark: a realistic log generated, built live, rebuilt, compared');
await onEachDatabase(run);
