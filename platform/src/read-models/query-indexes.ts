import { allSettledOrFirstFailure } from '../async/settled.ts';
import type { Sql } from '../store/sql.ts';
import { QUERY_INDEX, markQueryIndex } from './table.ts';

/** A query-only index set aside while a rebuild fills its table: its name, its table's, and how to build it. */
export interface QueryIndex {
  name: string;
  table: string;
  definition: string;
}

/**
 * Drops the indexes of `schema` that only queries read (marked by createTable), answering how to
 * build them again: a rebuild fills its fresh tables without them, then builds each in one sort
 * (buildQueryIndexes) instead of inserting a million entries one by one.
 */
export async function setQueryIndexesAside(sql: Sql, schema: string): Promise<QueryIndex[]> {
  const indexes = await sql.query<QueryIndex>(
    `SELECT i.relname AS name, t.relname AS "table", pg_get_indexdef(i.oid) AS definition
       FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace
       JOIN pg_index x ON x.indexrelid = i.oid JOIN pg_class t ON t.oid = x.indrelid
      WHERE n.nspname = $1 AND i.relkind = 'i' AND obj_description(i.oid, 'pg_class') = $2
      ORDER BY i.relname`,
    [schema, QUERY_INDEX],
  );
  for (const { name } of indexes) await sql.query(`DROP INDEX ${schema}.${name}`);
  return indexes;
}

/**
 * Builds the indexes set aside, marked again. With `lanes` above 1 (a pool of connections), that
 * many statements run at once, the largest tables' first: each is one process's work in
 * PostgreSQL, and a rebuild's machine has more cores. Once `stop` is aborted (the work beside it
 * failed), no more is started, and the indexes in progress end.
 */
export async function buildQueryIndexes(
  sql: Sql,
  schema: string,
  indexes: readonly QueryIndex[],
  lanes = 1,
  stop?: AbortSignal,
): Promise<void> {
  const order = new Map((await tablesBySize(sql, schema)).map((name, i) => [name, i]));
  const largestFirst = [...indexes].sort((a, b) => order.get(a.table)! - order.get(b.table)!);
  await inLanes(
    largestFirst,
    lanes,
    async ({ name, definition }) => {
      await sql.query(definition);
      await markQueryIndex(sql, schema, name);
    },
    stop,
  );
}

/**
 * Gathers statistics on every table of `schema` (freshly filled tables have none, and the planner
 * would guess the queries' plans), `lanes` at a time, the largest first.
 */
export async function analyzeTables(sql: Sql, schema: string, lanes = 1): Promise<void> {
  await inLanes(await tablesBySize(sql, schema), lanes, (name) => sql.query(`ANALYZE ${schema}.${name}`));
}

const tablesBySize = async (sql: Sql, schema: string) =>
  (
    await sql.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY pg_relation_size(c.oid) DESC, c.relname`,
      [schema],
    )
  ).map((row) => row.name);

/**
 * `work` for each item in order, `lanes` at a time; after a failure (or once `stop` is aborted) no
 * more is started, and once every lane has stopped (none left running behind the caller) the
 * first failure is thrown.
 */
async function inLanes<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<unknown>,
  stop?: AbortSignal,
): Promise<void> {
  let next = 0;
  let failed = false;
  await allSettledOrFirstFailure(
    Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, async () => {
      while (!failed && !stop?.aborted && next < items.length) {
        const item = items[next++]!;
        await work(item).catch((error: unknown) => {
          failed = true;
          throw error;
        });
      }
    }),
  );
}
