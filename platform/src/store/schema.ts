import { createPersonalKeyTable } from '../privacy/personal-data.ts';
import { APPEND_BATCH_FUNCTION } from './append-batch.sql.ts';
import { replaceWhenChanged } from './replace-when-changed.ts';
import { withSchemaLock } from './schema-lock.ts';
import type { SqlDatabase } from './sql.ts';

/** The event log's tables, and the keys that seal personal data in it. Creating them is idempotent. */
export function createEventStoreSchema(db: SqlDatabase): Promise<void> {
  return withSchemaLock(db, async (sql) => {
    for (const statement of [
      `CREATE SCHEMA IF NOT EXISTS es`,
      `CREATE TABLE IF NOT EXISTS es.events (
       position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
       stream_id text NOT NULL,
       stream_revision bigint NOT NULL,
       type text NOT NULL,
       schema_version integer NOT NULL,
       data jsonb NOT NULL,
       metadata jsonb NOT NULL DEFAULT '{}',
       created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
       UNIQUE (stream_id, stream_revision)
     )`,
      `CREATE INDEX IF NOT EXISTS events_global_order ON es.events (transaction_id, position)`,
      `CREATE TABLE IF NOT EXISTS es.streams (
       stream_id text PRIMARY KEY,
       revision bigint NOT NULL
     )`,
      `CREATE TABLE IF NOT EXISTS es.idempotency (
       key text PRIMARY KEY,
       fingerprint text NOT NULL,
       result jsonb,
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    ]) {
      await sql.query(statement);
    }
    await replaceWhenChanged(sql, 'FUNCTION es.append_batch(jsonb)', APPEND_BATCH_FUNCTION);
    await createPersonalKeyTable(sql);
  });
}
