import { createCheckpointTable, readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { createPartitionTable } from '@portal/platform/read-models/partitions';
import { createFaultTables } from '@portal/platform/read-models/projection-faults';
import { createOpenFunction, readModelKey } from '@portal/platform/read-models/sealed-columns';
import { withSchemaLock } from '@portal/platform/store/schema-lock';
import { type Sql, type SqlDatabase, isMissingTable, sqlState } from '@portal/platform/store/sql';
import type { Projection } from './projection.ts';

/** The read models' schema and tables, and whether those already built are of this version. */

/**
 * Creates the read-model schema, its checkpoint and every projection's tables (idempotent), and
 * records the version of each projection's tables.
 */
export async function prepareReadModels(db: SqlDatabase, schema: string, projections: readonly Projection[]) {
  // A first start of a new version adds tables and indexes while another projector may write the
  // old ones: PostgreSQL may end this transaction to break a deadlock. It is all idempotent: again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await prepareOnce(db, schema, projections);
    } catch (error) {
      if (sqlState(error) !== DEADLOCK || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

const DEADLOCK = '40P01';

async function prepareOnce(db: SqlDatabase, schema: string, projections: readonly Projection[]) {
  await withSchemaLock(db, async (tx) => {
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await createCheckpointTable(tx, schema);
    await createPartitionTable(tx, schema);
    await createFaultTables(tx, schema);
    await createOpenFunction(tx, schema);
    await readModelKey(tx); // made here, before any batch can make it in a savepoint it rolls back
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.projection_versions (name text PRIMARY KEY, version integer NOT NULL)`,
    );
    for (const projection of projections) {
      await projection.createTables(tx, schema);
      await recordVersion(tx, schema, projection);
    }
  });
}

/** Records that `projection`'s tables in `schema` are of its current version. */
export async function recordVersion(sql: Sql, schema: string, projection: Projection): Promise<void> {
  await sql.query(
    `INSERT INTO ${schema}.projection_versions (name, version) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version`,
    [projection.name, projection.version],
  );
}

/**
 * The projections whose read models, already filled from the log, were built by another version
 * (or not at all), with those rebuilt together with them (`rebuiltWith`).
 */
export async function outdatedProjections(
  db: Sql,
  schema: string,
  projections: readonly Projection[],
): Promise<Projection[]> {
  const checkpoint = await readCheckpoint(db, schema).catch((error: unknown) => {
    if (isMissingTable(error)) return null;
    throw error;
  });
  if (!checkpoint || checkpoint.position === 0) return [];
  const rows = await db
    .query<{ name: string; version: number }>(`SELECT name, version FROM ${schema}.projection_versions`)
    .catch((error: unknown) => {
      if (isMissingTable(error)) return [];
      throw error;
    });
  const built = new Map(rows.map((row) => [row.name, Number(row.version)]));
  const outdated = new Set(projections.filter((p) => built.get(p.name) !== p.version).map((p) => p.name));
  for (let grew = true; grew;) {
    grew = false;
    for (const projection of projections) {
      const coupled = projection.rebuiltWith?.some((name) => outdated.has(name));
      if (coupled && !outdated.has(projection.name)) {
        outdated.add(projection.name);
        grew = true;
      }
    }
  }
  return projections.filter((projection) => outdated.has(projection.name));
}

/** Whether projectors consuming Kafka have written these read models (partitions may be ahead). */
export async function builtFromKafka(db: Sql, schema: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM ${schema}.partition_progress LIMIT 1`).catch((error: unknown) => {
    if (isMissingTable(error)) return [];
    throw error;
  });
  return rows.length > 0;
}
