/**
 * How fast the registration report answers with many members (issue: fast at 100,000), on PGlite
 * and, when DATABASE_URL is set, PostgreSQL. Rows are inserted straight into the read model, as
 * the projector would leave them (personal columns sealed; a search finds its rows through the
 * blind index, a sort by name opens every name). Prints the median of five runs per query;
 * asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { prepareReadModels } from '@portal/projector/read-models';
import { projections } from '@portal/projector/projections/index';
import { RegistrationQuery } from '@portal/contracts/views/account';
import { searchRegistrations } from '@portal/query-api/core/accounts-table';
import { figure, median, onEachDatabase } from './measure.ts';
import { seedMembers } from './report-data.ts';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);

const queries: [string, Record<string, unknown>, boolean][] = [
  ['first page, newest first', { page: 1 }, true],
  ['search a name fragment', { search: 'son 4242', page: 1 }, true],
  ['search a phone number', { search: '0800042424', page: 1 }, true],
  ['approved, by name, page 50', { status: 'approved', sort: 'name', order: 'asc', page: 50 }, true],
  ['CSV: every pending row', { status: 'pending' }, false],
];

async function run(database: TestDatabase) {
  const { db, drop } = await database.open();
  try {
    await createEventStoreSchema(db);
    await prepareReadModels(db, 'rm', projections);
    const started = performance.now();
    await unlockReadModels(db);
    // Sealed and indexed for search as the projector leaves them (report-data.ts).
    await seedMembers(db, MEMBERS, () => {});
    const seeded = (performance.now() - started) / 1000;
    const figures: string[] = [];
    for (const [label, raw, paged] of queries) {
      const query = RegistrationQuery.parse(raw);
      const limit = paged ? { page: query.page ?? 1, pageSize: 10 } : null;
      figures.push(
        figure(label, await median(async () => (await searchRegistrations(db, query, limit)).members.length)),
      );
    }
    console.log(`${database.name}: ${MEMBERS} members seeded in ${seeded.toFixed(1)} s\n${figures.join('\n')}`);
  } finally {
    await drop();
  }
}

console.log(`Registration report benchmark: median of 5 runs per query`);
await onEachDatabase(run);
