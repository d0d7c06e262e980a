import type { StoredEvent } from '@portal/contracts/envelope';
import { type EventStore, START, checkpointOf } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { applyBatch } from '../apply.ts';
import { prepareReadModels } from '../read-models.ts';
import { projections } from '../projections/index.ts';

/** The projector's bookkeeping, which differs by design between two ways of building the same rows. */
const BOOKKEEPING = new Set(['checkpoints', 'partition_progress', 'projection_versions']);

/** Every event of the log, in its order. */
export async function wholeLog(store: EventStore): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (;;) {
    const batch = await store.readAll(events.length ? checkpointOf(events[events.length - 1]!) : START, 1000);
    if (batch.length === 0) return events;
    events.push(...batch);
  }
}

/** Fresh read models in `schema`, built from the whole log by one projector reading it directly. */
export async function buildFromLog(db: SqlDatabase, store: EventStore, schema: string): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await prepareReadModels(db, schema, projections);
  const events = await wholeLog(store);
  for (let from = 0; from < events.length; from += 500) {
    await applyBatch(db, schema, projections, events.slice(from, from + 500));
  }
}

/**
 * Where two sets of read models differ: for each table, the rows only one of them has (as a
 * multiset, so a row counted twice shows). Empty when they are equal. A sealed table is compared
 * through its view (every other column, and its personal columns opened): sealing twice never
 * gives the same bytes.
 */
export async function readModelDifferences(db: SqlDatabase, a: string, b: string) {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [a],
  );
  const differences: { table: string; onlyIn: string; rows: unknown[] }[] = [];
  for (const { table_name: table } of tables) {
    if (BOOKKEEPING.has(table) || table.endsWith('_sealed')) continue;
    for (const [left, right] of [
      [a, b],
      [b, a],
    ]) {
      const rows = await db.query(`SELECT * FROM ${left}.${table} EXCEPT ALL SELECT * FROM ${right}.${table} LIMIT 5`);
      if (rows.length > 0) differences.push({ table, onlyIn: left!, rows });
    }
  }
  return differences;
}

/** How many rows each read-model table holds (so a comparison of empty tables proves nothing is noticed). */
export async function readModelSizes(db: SqlDatabase, schema: string): Promise<Record<string, number>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  );
  const sizes: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    if (BOOKKEEPING.has(table)) continue;
    const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${schema}.${table}`);
    sizes[table] = Number(row!.n);
  }
  return sizes;
}

/**
 * Every read-model row of `schema`, table by table, as sorted JSON texts: for comparing the read
 * models of two databases (a restored copy, say). Sealed tables are read through their views.
 */
export async function readModelRows(db: SqlDatabase, schema: string): Promise<Record<string, string[]>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  );
  const rows: Record<string, string[]> = {};
  for (const { table_name: table } of tables) {
    if (BOOKKEEPING.has(table) || table.endsWith('_sealed')) continue;
    const found = await db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM ${schema}.${table} t`);
    rows[table] = found.map((entry) => entry.row).sort();
  }
  return rows;
}
