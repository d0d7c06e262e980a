import type { Sql, SqlDatabase } from './sql.ts';

/**
 * The planner's statistics and the vacuum for the embedded database. PostgreSQL's autovacuum
 * vacuums and analyses a table once enough of it has changed; PGlite runs no autovacuum and keeps
 * no activity counters, so without this its tables keep the statistics of their last rebuild, or
 * none: a registration page deep in 100,000 members was then planned as a sort of every row
 * through temporary files (0.5 s) instead of a walk along the date index (5 ms), and no page was
 * ever marked all-visible (index-only scans read the rows anyway) or cleared of dead rows by
 * anything but pruning (docs/performance.md, machine L).
 *
 * A table is vacuumed and analysed when it has grown to at least `MIN_PAGES` pages and by more
 * than a fifth since (both record its size in pg_class.relpages; a table never analysed has
 * none): its size is the only measure of change PGlite has. A table's rows changed in place
 * without growing it wait until it grows. After the first, a vacuum reads only the pages changed
 * since; the ANALYZE's sample is most of the cost.
 */
export const SCHEMAS = ['es', 'rm', 'cmd', 'auth', 'privacy'] as const;
export const MIN_PAGES = 8;
export const GROWTH = 1.2;

/** The tables grown past the threshold, smallest first. */
export async function grownTables(sql: Sql): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
            LATERAL (SELECT pg_relation_size(c.oid) / current_setting('block_size')::int AS pages) s
      WHERE c.relkind = 'r' AND n.nspname IN (${SCHEMAS.map((schema) => `'${schema}'`).join(', ')})
        AND s.pages >= $1 AND (c.reltuples < 0 OR s.pages > c.relpages * $2::float8)
      ORDER BY s.pages, 1`,
    [MIN_PAGES, GROWTH],
  );
  return rows.map((row) => row.name);
}

/** Vacuums and analyses every grown table, one statement each (others' statements run between them). */
export async function vacuumGrown(sql: Sql, onVacuumed?: (table: string, ms: number) => void): Promise<string[]> {
  const tables = await grownTables(sql);
  for (const table of tables) {
    const started = performance.now();
    await sql.query(`VACUUM (ANALYZE) ${table}`);
    onVacuumed?.(table, performance.now() - started);
  }
  return tables;
}

/**
 * Looks for grown tables every `everyMs` while the embedded database is open; `stop` waits for a
 * pass under way. On PostgreSQL there is nothing to do: autovacuum does it.
 */
export function keepEmbeddedStatistics(
  db: SqlDatabase,
  options: {
    everyMs?: number;
    onVacuumed?: (table: string, ms: number) => void;
    onError?: (error: unknown) => void;
  } = {},
): { stop(): Promise<void> } {
  if (db.kind !== 'pglite') return { stop: async () => {} };
  const everyMs = options.everyMs ?? 60_000;
  let stopped = false;
  let pass: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(() => {
      pass = vacuumGrown(db, options.onVacuumed)
        .then(
          () => {},
          (error: unknown) => {
            if (!stopped) options.onError?.(error);
          },
        )
        .finally(() => {
          if (!stopped) schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
