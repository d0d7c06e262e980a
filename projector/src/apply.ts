import type { StoredEvent } from '@portal/events/envelope';
import { courseIdOf } from '@portal/events/courses/course.events';
import {
  CHANGES_CHANNEL,
  PROGRESS_CHANNEL,
  createCheckpointTable,
  readCheckpoint,
  writeCheckpoint,
} from '@portal/events/read-models/checkpoint';
import { createPartitionTable } from '@portal/events/read-models/partitions';
import { personalDataReader } from '@portal/events/privacy/personal-data';
import { type Checkpoint, checkpointOf, isAtOrBefore } from '@portal/events/store/port';
import { withSchemaLock } from '@portal/events/store/schema-lock';
import { type Sql, type SqlDatabase, isMissingTable } from '@portal/events/store/sql';
import type { Batch, Projection } from './projection.ts';

/**
 * Creates the read-model schema, its checkpoint and every projection's tables (idempotent), and
 * records the version of each projection's tables.
 */
export async function prepareReadModels(db: SqlDatabase, schema: string, projections: readonly Projection[]) {
  await withSchemaLock(db, async (tx) => {
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await createCheckpointTable(tx, schema);
    await createPartitionTable(tx, schema);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.projection_versions (name text PRIMARY KEY, version integer NOT NULL)`,
    );
    for (const projection of projections) {
      await projection.createTables(tx, schema);
      await tx.query(
        `INSERT INTO ${schema}.projection_versions (name, version) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version`,
        [projection.name, projection.version],
      );
    }
  });
}

/**
 * Whether read models already filled from the log were built by other versions of the
 * projections (their tables changed, or a projection is new): they must be rebuilt from the log.
 */
export async function readModelsOutdated(
  db: Sql,
  schema: string,
  projections: readonly Projection[],
): Promise<boolean> {
  const checkpoint = await readCheckpoint(db, schema).catch((error: unknown) => {
    if (isMissingTable(error)) return null;
    throw error;
  });
  if (!checkpoint || checkpoint.position === 0) return false;
  const rows = await db
    .query<{ name: string; version: number }>(`SELECT name, version FROM ${schema}.projection_versions`)
    .catch((error: unknown) => {
      if (isMissingTable(error)) return [];
      throw error;
    });
  const built = new Map(rows.map((row) => [row.name, Number(row.version)]));
  return projections.some((projection) => built.get(projection.name) !== projection.version);
}

/** Whether projectors consuming Kafka have written these read models (partitions may be ahead). */
export async function builtFromKafka(db: Sql, schema: string): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM ${schema}.partition_progress LIMIT 1`).catch((error: unknown) => {
    if (isMissingTable(error)) return [];
    throw error;
  });
  return rows.length > 0;
}

/** The course an event is about: its stream's, or the one its data names (attendance). */
export function courseOf(event: StoredEvent): string | null {
  if (event.streamId.startsWith('course-')) return courseIdOf(event.streamId);
  const courseId = (event.data as { courseId?: unknown } | null)?.courseId;
  return typeof courseId === 'string' ? courseId : null;
}

/**
 * Applies a batch in one transaction with the checkpoint. Events at or before the stored
 * checkpoint are skipped, so a batch delivered twice, or by two projectors at once, counts once.
 */
export async function applyBatch(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
): Promise<Checkpoint> {
  return db.transaction((tx) => applyBatchIn(tx, schema, projections, batch));
}

/** The same, inside a transaction the caller holds. */
export async function applyBatchIn(
  tx: Sql,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
): Promise<Checkpoint> {
  const start = await readCheckpoint(tx, schema, true);
  let checkpoint = start;
  const fresh: StoredEvent[] = [];
  for (const event of batch) {
    if (isAtOrBefore(checkpointOf(event), checkpoint)) continue;
    fresh.push(event);
    checkpoint = checkpointOf(event);
  }
  if (checkpoint === start) return checkpoint;
  const courses = await applyEvents(tx, schema, projections, fresh);
  await writeCheckpoint(tx, schema, checkpoint);
  await announce(tx, checkpoint, courses);
  return checkpoint;
}

/**
 * Applies events through every projection, then the work they deferred to the batch's end;
 * answers the courses the events were about. The caller decides which events are new and
 * records how far it got, in the same transaction.
 */
export async function applyEvents(
  tx: Sql,
  schema: string,
  projections: readonly Projection[],
  events: readonly StoredEvent[],
  /** Runs after the events and before the deferred work (a projector sharing the log takes its locks here). */
  beforeDeferred?: () => Promise<void>,
): Promise<Set<string>> {
  // The keys live beside the log, in the same database as the read models (as rebuilds assume).
  const personal = personalDataReader(tx);
  const courses = new Set<string>();
  const deferred = new Map<string, () => Promise<void>>();
  const context: Batch = { after: (key, work) => void deferred.set(key, work) };
  for (const event of events) {
    for (const projection of projections) await projection.apply(tx, schema, event, personal, context);
    const course = courseOf(event);
    if (course) courses.add(course);
  }
  await beforeDeferred?.();
  for (const work of deferred.values()) await work();
  return courses;
}

/**
 * Tells the query API, at commit, that the read models reached `checkpoint` (read-your-writes
 * waiters; null: it did not move) and that events were applied, with the courses they were about
 * (live pages; null: no events were applied).
 */
export async function announce(tx: Sql, checkpoint: Checkpoint | null, courses: Set<string> | null) {
  if (checkpoint) await tx.query(`SELECT pg_notify($1, $2)`, [PROGRESS_CHANNEL, String(checkpoint.position)]);
  if (!courses) return;
  // NOTIFY payloads stay under 8000 bytes: a batch touching many courses says "all".
  const changed = courses.size <= 100 ? [...courses] : '*';
  await tx.query(`SELECT pg_notify($1, $2)`, [
    CHANGES_CHANNEL,
    JSON.stringify({ position: checkpoint?.position ?? 0, courses: changed }),
  ]);
}
