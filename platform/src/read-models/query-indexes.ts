import type { Sql } from '../store/sql.ts';
import { QUERY_INDEX, markQueryIndex } from './table.ts';

/** A query-only index set aside while a rebuild fills its table: its name and how to build it. */
export interface QueryIndex {
  name: string;
  definition: string;
}

/**
 * Drops the indexes of `schema` that only queries read (marked by createTable), answering how to
 * build them again: a rebuild fills its fresh tables without them, then builds each in one sort
 * (buildQueryIndexes) instead of inserting a million entries one by one.
 */
export async function setQueryIndexesAside(sql: Sql, schema: string): Promise<QueryIndex[]> {
  const indexes = await sql.query<QueryIndex>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
       FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace
      WHERE n.nspname = $1 AND i.relkind = 'i' AND obj_description(i.oid, 'pg_class') = $2
      ORDER BY i.relname`,
    [schema, QUERY_INDEX],
  );
  for (const { name } of indexes) await sql.query(`DROP INDEX ${schema}.${name}`);
  return indexes;
}

/**
 * Builds the indexes set aside, marked again, then gathers statistics on every table of `schema`
 * (freshly filled tables have none, and the planner would guess the queries' plans).
 */
export async function buildQueryIndexes(sql: Sql, schema: string, indexes: readonly QueryIndex[]): Promise<void> {
  for (const { name, definition } of indexes) {
    await sql.query(definition);
    await markQueryIndex(sql, schema, name);
  }
  const tables = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`,
    [schema],
  );
  for (const { name } of tables) await sql.query(`ANALYZE ${schema}.${name}`);
}
