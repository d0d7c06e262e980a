/**
 * How fast the registration report answers with many members (issue: fast at 100,000), on PGlite
 * and, when DATABASE_URL is set, PostgreSQL. Rows are inserted straight into the read model, as
 * the projector would leave them (personal columns sealed, so searches and sorts by name open every row). Prints the median of five runs per query; asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { readModelKey, unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { prepareReadModels } from '@portal/projector/read-models';
import { projections } from '@portal/projector/projections/index';
import { RegistrationQuery } from '@portal/contracts/views/account';
import { searchRegistrations } from '@portal/query-api/core/accounts-table';
import { figure, median, onEachDatabase } from './measure.ts';

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
    // Sealed as the projector seals them (read-models/sealed-columns.ts), but in SQL, for speed.
    const key = await readModelKey(db);
    await unlockReadModels(db);
    const columns: Record<string, string> = {
      username: `'user' || n`,
      title: `'นาย'`,
      full_name: `'Person ' || n`,
      personal_id: `lpad(n::text, 13, '1')`,
      personal_phone: `'08' || lpad(n::text, 8, '0')`,
      personal_email: `'user' || n || '@example.com'`,
      personal_address: `n || ' Sukhumvit Road'`,
      personal_province: `'กรุงเทพมหานคร'`,
      personal_district: `'วัฒนา'`,
      personal_subdistrict: `'คลองเตยเหนือ'`,
      personal_postal_code: `'10110'`,
    };
    const search = `lower(id || ' ' || ${Object.values(columns).join(` || ' ' || `)})`;
    const sealed = (text: string) => `(SELECT iv || encrypt_iv(convert_to(${text}, 'UTF8'), $2, iv, 'aes-cbc/pad:pkcs')
      FROM (SELECT gen_random_bytes(16) AS iv) AS fresh)`;
    await db.query(
      `INSERT INTO rm.accounts_sealed (id, role, status, registered_at, updated_at, ${Object.keys(columns).join(', ')}, search_text)
       SELECT id, 'member', (ARRAY['pending', 'approved', 'rejected'])[1 + n % 3], now() - n * interval '1 minute', now(),
              ${Object.values(columns).map(sealed).join(', ')}, ${sealed(search)}
         FROM (SELECT n, lpad(to_hex(n), 24, '0') AS id FROM generate_series(1, $1::int) AS n) AS seeded`,
      [MEMBERS, key],
    );
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
