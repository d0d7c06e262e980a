/**
 * What each projection costs the portal's thread per event, without the database's share: the
 * kept log of bench/rebuild-again.bench.ts (PostgreSQL, run that first) is read into memory
 * (BENCH_EVENTS, 200,000 by default), then applied through each projection as a rebuild applies
 * it, with every statement that writes answered at once without reaching the database (those that
 * read, such as the people's keys, run). Prints the CPU per 1,000 events of each projection, the
 * best of BENCH_TIMES (3) runs; BENCH_PROJECTIONS=accounts,attendance measures those alone. `DATABASE_URL=... npx tsx bench/projection-cpu.bench.ts`
 */
import type { StoredEvent } from '@portal/contracts/envelope';
import { connectPostgres } from '@portal/platform/store/postgres';
import { readAllAfter } from '@portal/platform/store/event-store';
import { START, checkpointOf } from '@portal/platform/store/port';
import type { Sql } from '@portal/platform/store/sql';
import { applyEvents } from '@portal/projector/apply';
import { projections } from '@portal/projector/projections/index';
import './measure.ts'; // personal data sealed with the test key, as the benchmarks' logs are

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL (the kept log of bench/rebuild-again.bench.ts)');
const target = Number(process.env.BENCH_EVENTS ?? 200_000);
const times = Number(process.env.BENCH_TIMES ?? 3);
const kept = new URL(url);
kept.pathname = '/portal_bench_rebuild';
const db = connectPostgres({ connectionString: kept.toString(), max: 4 });

const batches: StoredEvent[][] = [];
let read = 0;
for (let after = START; read < target;) {
  const batch = await readAllAfter(db, after, 5000);
  if (batch.length === 0) break;
  batches.push(batch);
  read += batch.length;
  after = checkpointOf(batch.at(-1)!);
}
console.log(`${read.toLocaleString('en')} events in ${batches.length} batches`);

/** Reads reach the database; writes are answered at once with no rows. */
const readsOnly: Sql = {
  query: async <Row>(text: string, params?: readonly unknown[]) =>
    /^\s*(SELECT|WITH)\b/i.test(text) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(text)
      ? db.query<Row>(text, params)
      : ([] as Row[]),
  copyIn: async () => {},
};

const only = process.env.BENCH_PROJECTIONS?.split(',');
let total = 0;
for (const projection of projections.filter((p) => !only || only.includes(p.name))) {
  let best = Infinity;
  for (let run = 0; run < times; run++) {
    const cpu = process.cpuUsage();
    for (const events of batches) {
      await applyEvents(readsOnly, 'rm', [projection], events, { rebuilding: true, aside: new Set() });
    }
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  total += best;
  console.log(`  ${projection.name.padEnd(14)} ${((best / read) * 1000).toFixed(1).padStart(7)} ms per 1,000 events`);
}
console.log(`  ${'all'.padEnd(14)} ${((total / read) * 1000).toFixed(1).padStart(7)} ms per 1,000 events`);
await db.close();
