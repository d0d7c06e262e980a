import { performance } from 'node:perf_hooks';
import type { TestDatabase } from '@portal/platform/testing/databases';
import { pgliteDatabase, postgresDatabase } from '@portal/platform/testing/databases';
import { useTestDataKeys } from '@portal/platform/testing/data-keys';

/** Runs `query` five times; answers the median time in ms and the rows of the last answer. */
export async function median(query: () => Promise<number>): Promise<{ ms: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    rows = await query();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[2]!, rows };
}

export const figure = (label: string, { ms, rows }: { ms: number; rows: number }) =>
  `  ${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms  (${rows} rows)`;

/**
 * Runs the benchmark on PGlite and, when DATABASE_URL is set, on PostgreSQL; BENCH_ONLY=pglite or
 * BENCH_ONLY=postgres runs it on that one alone.
 */
export async function onEachDatabase(run: (database: TestDatabase) => Promise<void>): Promise<void> {
  const only = process.env.BENCH_ONLY;
  if (only !== 'postgres') await run(pgliteDatabase);
  if (only === 'pglite') return;
  if (process.env.DATABASE_URL) await run(postgresDatabase);
  else console.log('postgres  skipped: set DATABASE_URL to measure PostgreSQL too');
}

// Benchmarks seal personal data as the services do, with a test key-encryption key.
useTestDataKeys();
