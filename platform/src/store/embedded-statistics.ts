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

/**
 * Vacuums and analyses every grown table, one statement each, each after `lull()` resolves (a
 * moment without requests, createLull) to true; false ends the pass there (the database is
 * closing). Answers the tables vacuumed. PGlite runs one statement at a time, so a table's vacuum
 * (up to a tenth of a second for the log) holds every request and the projector's batch behind
 * it, and a batch of eight statements met the next table's at each of them (scans seen 186 ms
 * late at 16 scanners instead of 60).
 */
export async function vacuumGrown(
  sql: Sql,
  onVacuumed?: (table: string, ms: number) => void,
  lull: () => Promise<boolean> = async () => true,
): Promise<string[]> {
  const vacuumed: string[] = [];
  for (const table of await grownTables(sql)) {
    if (!(await lull())) break;
    const started = performance.now();
    await sql.query(`VACUUM (ANALYZE) ${table}`);
    vacuumed.push(table);
    onVacuumed?.(table, performance.now() - started);
  }
  return vacuumed;
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
    /** Resolves at a moment without requests, or once `stopped` (createLull's `wait`): each table waits for one. */
    lull?: (stopped: () => boolean) => Promise<void>;
  } = {},
): { stop(): Promise<void> } {
  if (db.kind !== 'pglite') return { stop: async () => {} };
  const everyMs = options.everyMs ?? 60_000;
  let stopped = false;
  let pass: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const schedule = () => {
    timer = setTimeout(() => {
      const lull = async () => {
        await options.lull?.(() => stopped);
        return !stopped;
      };
      pass = vacuumGrown(db, options.onVacuumed, lull)
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

/** Time without requests that counts as a lull; the longest a table waits for one. */
export const LULL_MS = 250;
export const LULL_WAIT_MS = 120_000;

/**
 * Moments without requests, for work that holds the embedded database (vacuumGrown): `noteActivity`
 * on every request; `wait` resolves once none came for `quietMs`, or after `maxWaitMs` whatever
 * comes (a room scanning without a pause still gets its statistics, one table at a time), or as
 * soon as `stopped` answers true.
 */
export function createLull({ quietMs = LULL_MS, maxWaitMs = LULL_WAIT_MS, pollMs = 50 } = {}) {
  let lastActivity = -Infinity;
  return {
    noteActivity() {
      lastActivity = performance.now();
    },
    async wait(stopped: () => boolean = () => false) {
      const since = performance.now();
      while (performance.now() - lastActivity < quietMs && performance.now() - since < maxWaitMs && !stopped()) {
        await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
      }
    },
  };
}
