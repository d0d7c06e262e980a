import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '../src/store/sql.ts';
import { GROWTH, MIN_PAGES, createLull, vacuumGrown, grownTables } from '../src/store/embedded-statistics.ts';
import { testDatabases } from '../src/testing/databases.ts';

/**
 * A table is analysed once it has grown to MIN_PAGES pages, then again only once it has grown by
 * more than GROWTH since: the embedded database's stand-in for autovacuum's analyses.
 */
describe.each(testDatabases())('the planner statistics kept on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  // No autovacuum on PostgreSQL: the probes are vacuumed and analysed by what is tested alone.
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await db.query(`CREATE SCHEMA IF NOT EXISTS rm`);
    await db.query(
      `CREATE TABLE rm.statistics_probe (id int PRIMARY KEY, status text NOT NULL) WITH (autovacuum_enabled = false)`,
    );
    await db.query(`CREATE TABLE rm.statistics_quiet (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
    await db.query(`CREATE SCHEMA IF NOT EXISTS elsewhere`);
    await db.query(`CREATE TABLE elsewhere.statistics_probe (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
  });
  afterAll(() => drop());

  let rows = 0;
  /** More rows in the probe, until it has at least `pages` pages. */
  const growTo = async (pages: number) => {
    for (;;) {
      const [size] = await db.query<{ pages: string }>(
        `SELECT (pg_relation_size('rm.statistics_probe') / current_setting('block_size')::int)::text AS pages`,
      );
      if (Number(size!.pages) >= pages) return Number(size!.pages);
      await db.query(
        `INSERT INTO rm.statistics_probe SELECT n, CASE WHEN n % 3 = 0 THEN 'approved' ELSE 'pending' END
           FROM generate_series($1::int, $2::int) n`,
        [rows + 1, rows + 200],
      );
      rows += 200;
    }
  };
  const statusKnown = async () =>
    (
      await db.query(
        `SELECT 1 FROM pg_stats WHERE schemaname = 'rm' AND tablename = 'statistics_probe' AND attname = 'status'`,
      )
    ).length > 0;
  const probe = 'rm.statistics_probe';
  /** Pages the vacuum marked all-visible (what lets an index-only scan skip the rows). */
  const allVisible = async () =>
    Number(
      (
        await db.query<{ n: string }>(`SELECT relallvisible::text AS n FROM pg_class WHERE oid = '${probe}'::regclass`)
      )[0]!.n,
    );

  it('leaves a small table alone, vacuums and analyses it once grown, and again only after it has grown by a fifth', async () => {
    await db.query(`INSERT INTO rm.statistics_quiet SELECT generate_series(1, 10)`);
    await db.query(`INSERT INTO elsewhere.statistics_probe SELECT generate_series(1, 5000)`);
    expect(await grownTables(db)).not.toContain(probe);

    const analysedAt = await growTo(MIN_PAGES);
    expect(await grownTables(db)).toContain(probe);
    expect(await grownTables(db)).not.toContain('rm.statistics_quiet');
    expect(await grownTables(db)).not.toContain('elsewhere.statistics_probe');
    expect(await statusKnown()).toBe(false);
    expect(await allVisible()).toBe(0);
    const vacuumed: string[] = [];
    expect(await vacuumGrown(db, (table) => vacuumed.push(table))).toContain(probe);
    expect(vacuumed).toContain(probe);
    expect(await statusKnown()).toBe(true);
    expect(await allVisible()).toBeGreaterThanOrEqual(analysedAt);
    expect(await grownTables(db)).not.toContain(probe);

    await growTo(Math.floor(analysedAt * GROWTH));
    expect(await grownTables(db)).not.toContain(probe);
    await growTo(Math.floor(analysedAt * GROWTH) + 1);
    expect(await grownTables(db)).toContain(probe);
  });

  it('vacuums each grown table only once its lull has come', async () => {
    await db.query(`CREATE TABLE rm.statistics_second (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
    await db.query(`INSERT INTO rm.statistics_second SELECT generate_series(1, 5000)`);
    await growTo(Math.floor((await allVisible()) * GROWTH) + 2);
    const events: string[] = [];
    let lulls = 0;
    const lull = async () => {
      events.push(`lull ${++lulls}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return true;
    };
    const tables = await vacuumGrown(db, (table) => events.push(table), lull);
    expect(tables).toEqual(expect.arrayContaining([probe, 'rm.statistics_second']));
    expect(events).toEqual(tables.flatMap((table, i) => [`lull ${i + 1}`, table]));
  });

  it('ends the pass where a lull answers that the database is closing', async () => {
    await db.query(`CREATE TABLE rm.statistics_third (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
    await db.query(`INSERT INTO rm.statistics_third SELECT generate_series(1, 5000)`);
    await growTo(Math.floor((await allVisible()) * GROWTH) + 2);
    const grown = await grownTables(db);
    expect(grown.length).toBeGreaterThanOrEqual(2);
    let lulls = 0;
    const vacuumed = await vacuumGrown(db, undefined, async () => ++lulls === 1);
    expect(vacuumed).toEqual([grown[0]]);
    expect(await grownTables(db)).toEqual(grown.slice(1));
  });
});

describe('a lull between requests', () => {
  const waited = async (lull: ReturnType<typeof createLull>, stopped?: () => boolean) => {
    const started = performance.now();
    await lull.wait(stopped);
    return performance.now() - started;
  };

  it('comes once no request came for its quiet time, at once when none came, and after its longest wait whatever comes', async () => {
    const lull = createLull({ quietMs: 100, maxWaitMs: 5_000, pollMs: 10 });
    expect(await waited(lull)).toBeLessThan(50);
    // Requests every 20 ms for 300 ms, then none: the lull comes about 100 ms after the last.
    const busy = setInterval(() => lull.noteActivity(), 20);
    setTimeout(() => clearInterval(busy), 300);
    lull.noteActivity();
    const afterBusy = await waited(lull);
    expect(afterBusy).toBeGreaterThanOrEqual(380);
    expect(afterBusy).toBeLessThan(5_000);
    // Requests that never stop: the wait ends at its longest anyway, or at once when told to stop.
    const impatient = createLull({ quietMs: 100, maxWaitMs: 600, pollMs: 10 });
    const endless = setInterval(() => impatient.noteActivity(), 20);
    impatient.noteActivity();
    try {
      expect(await waited(impatient)).toBeGreaterThanOrEqual(590);
      expect(await waited(impatient, () => true)).toBeLessThan(50);
    } finally {
      clearInterval(endless);
    }
  });
});
