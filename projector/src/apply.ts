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
import { createFaultTable, readFaults, recordFault } from '@portal/events/read-models/projection-faults';
import { type PersonalDataReader, personalDataReader } from '@portal/events/privacy/personal-data';
import { readAllAfter } from '@portal/events/store/event-store';
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
    await createFaultTable(tx, schema);
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

/** How soon a projection set aside is tried again: doubling from `first` up to `max` (ms). */
export interface RetryPolicy {
  first: number;
  max: number;
}
export const DEFAULT_RETRY: RetryPolicy = { first: 1000, max: 60_000 };
export const retryDelay = (policy: RetryPolicy, attempts: number) =>
  Math.min(policy.max, policy.first * 2 ** Math.min(30, Math.max(0, attempts - 1)));

/**
 * Applies a batch in one transaction with the checkpoint. Events at or before the stored
 * checkpoint are skipped, so a batch delivered twice, or by two projectors at once, counts once.
 * Each projection applies the batch on its own (a savepoint): one that fails is rolled back alone
 * and set aside at the batch's start (rm.projection_faults) while the others, and the checkpoint,
 * move on; projections already set aside skip the batch (see retryFault).
 */
export async function applyBatch(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
  retry: RetryPolicy = DEFAULT_RETRY,
): Promise<Checkpoint> {
  return db.transaction((tx) => applyBatchIn(tx, schema, projections, batch, retry));
}

/** The same, inside a transaction the caller holds. */
export async function applyBatchIn(
  tx: Sql,
  schema: string,
  projections: readonly Projection[],
  batch: readonly StoredEvent[],
  retry: RetryPolicy = DEFAULT_RETRY,
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
  const aside = new Set((await readFaults(tx, schema)).map((fault) => fault.projection));
  const personal = personalDataReader(tx);
  for (const projection of projections) {
    if (aside.has(projection.name)) continue;
    const failure = await applyAlone(tx, schema, projection, fresh, personal);
    if (failure) {
      await recordFault(tx, schema, {
        projection: projection.name,
        checkpoint: start,
        ...failure,
        retryInMs: retry.first,
      });
    }
  }
  await writeCheckpoint(tx, schema, checkpoint);
  await announce(tx, checkpoint, coursesOf(fresh));
  return checkpoint;
}

/**
 * Applies events through one projection, with the work it defers, inside a savepoint: when it
 * throws, its effects are rolled back and the event it failed on is answered (null: all applied).
 * A failure to roll back (the database itself gone) is thrown: the whole batch is retried.
 */
async function applyAlone(
  tx: Sql,
  schema: string,
  projection: Projection,
  events: readonly StoredEvent[],
  personal: PersonalDataReader,
): Promise<{ position: number; error: string } | null> {
  await tx.query('SAVEPOINT projection');
  let current = events[0];
  try {
    const deferred = new Map<string, () => Promise<void>>();
    const context: Batch = { after: (key, work) => void deferred.set(key, work) };
    for (const event of events) {
      current = event;
      await projection.apply(tx, schema, event, personal, context);
    }
    for (const work of deferred.values()) await work();
    await tx.query('RELEASE SAVEPOINT projection');
    return null;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT projection');
    await tx.query('RELEASE SAVEPOINT projection');
    return { position: current?.position ?? 0, error: error instanceof Error ? error.message : String(error) };
  }
}

const RETRY_CHUNK = 500;

/**
 * Tries a projection set aside again: applies the events after its own checkpoint, up to the
 * read models' checkpoint (locked meanwhile, so the others wait rather than move on), in one
 * transaction. Answers `rejoined` when it has caught up (its row goes: from now on it applies
 * batches with the others), `progress` when there is more to apply, `failed` when it failed
 * again (tried later, each time later up to `retry.max`), `gone` when nothing is set aside.
 */
export async function retryFault(
  db: SqlDatabase,
  schema: string,
  projections: readonly Projection[],
  name: string,
  retry: RetryPolicy = DEFAULT_RETRY,
): Promise<'rejoined' | 'progress' | 'failed' | 'gone'> {
  return db.transaction(async (tx) => {
    const front = await readCheckpoint(tx, schema, true);
    const fault = (await readFaults(tx, schema, true)).find((row) => row.projection === name);
    if (!fault) return 'gone';
    const projection = projections.find((candidate) => candidate.name === name);
    const read = projection ? await readAllAfter(tx, fault.checkpoint, RETRY_CHUNK) : [];
    const events = read.filter((event) => isAtOrBefore(checkpointOf(event), front));
    if (projection && events.length > 0) {
      const failure = await applyAlone(tx, schema, projection, events, personalDataReader(tx));
      if (failure) {
        const retryInMs = retryDelay(retry, fault.attempts + 1);
        await recordFault(tx, schema, { projection: name, checkpoint: fault.checkpoint, ...failure, retryInMs });
        return 'failed';
      }
      await announce(tx, null, coursesOf(events));
    }
    if (!projection || read.length < RETRY_CHUNK || events.length < read.length) {
      await tx.query(`DELETE FROM ${schema}.projection_faults WHERE name = $1`, [name]);
      return 'rejoined';
    }
    const reached = checkpointOf(events.at(-1)!);
    await tx.query(
      `UPDATE ${schema}.projection_faults SET transaction_id = $2::xid8, position = $3, next_attempt_at = now()
        WHERE name = $1`,
      [name, reached.transactionId, reached.position],
    );
    return 'progress';
  });
}

const coursesOf = (events: readonly StoredEvent[]) =>
  new Set(events.map(courseOf).filter((course): course is string => course !== null));

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
