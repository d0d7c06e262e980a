import type { Sql, SqlDatabase } from './sql.ts';

/** One advisory lock for every piece of DDL in the project. */
const SCHEMA_LOCK = 7_415_826_391;

/**
 * Runs table creation in one transaction holding a database-wide advisory lock. PostgreSQL's
 * `CREATE ... IF NOT EXISTS` is not safe when two sessions run it at once (one fails with a
 * duplicate key in the catalogue), which is exactly what services starting together do.
 */
export function withSchemaLock(db: SqlDatabase, work: (tx: Sql) => Promise<void>): Promise<void> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [SCHEMA_LOCK]);
    await work(tx);
  });
}
