import type { StoredEvent } from '@portal/events/envelope';
import {
  PROGRESS_CHANNEL,
  type ReadModelLag,
  createCheckpointTable,
  readCheckpoint,
  readModelLag,
  writeCheckpoint,
} from '@portal/events/read-models/checkpoint';
import { type Checkpoint, type EventStore, checkpointOf, isAtOrBefore } from '@portal/events/store/port';
import { withSchemaLock } from '@portal/events/store/schema-lock';
import type { Sql, SqlDatabase } from '@portal/events/store/sql';
import { type Subscription, type SubscriptionState, subscribeToAll } from '@portal/events/store/subscription';
import type { Projection } from './projection.ts';

/** Creates the read-model schema, its checkpoint and every projection's tables (idempotent). */
export async function prepareReadModels(db: SqlDatabase, schema: string, projections: readonly Projection[]) {
  await withSchemaLock(db, async (tx) => {
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await createCheckpointTable(tx, schema);
    for (const projection of projections) await projection.createTables(tx, schema);
  });
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
  let checkpoint = await readCheckpoint(tx, schema, true);
  const start = checkpoint;
  for (const event of batch) {
    if (isAtOrBefore(checkpointOf(event), checkpoint)) continue;
    for (const projection of projections) await projection.apply(tx, schema, event);
    checkpoint = checkpointOf(event);
  }
  if (checkpoint !== start) {
    await writeCheckpoint(tx, schema, checkpoint);
    await tx.query(`SELECT pg_notify($1, $2)`, [PROGRESS_CHANNEL, String(checkpoint.position)]);
  }
  return checkpoint;
}

export interface ProjectorHealth extends ReadModelLag {
  running: boolean;
  lastError: string | null;
}

export interface Projector {
  /** Whether it is following the log, without asking the database. */
  state(): { running: boolean; lastError: string | null };
  health(): Promise<ProjectorHealth>;
  stop(): Promise<void>;
}

export interface ProjectorOptions {
  source: EventStore;
  target: SqlDatabase;
  projections: readonly Projection[];
  schema?: string;
  pollMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Follows the log from the stored checkpoint and keeps the read models up to date. A database
 * outage is retried until it is over; health says honestly whether it is running and how far
 * behind it is.
 */
export async function startProjector(options: ProjectorOptions): Promise<Projector> {
  const schema = options.schema ?? 'rm';
  await prepareReadModels(options.target, schema, options.projections);
  const subscription: Subscription = subscribeToAll(options.source, {
    from: () => readCheckpoint(options.target, schema),
    handle: async (batch) => {
      await applyBatch(options.target, schema, options.projections, batch);
    },
    pollMs: options.pollMs,
    onError: options.onError,
  });
  const state = () => {
    const { running, lastError }: SubscriptionState = subscription.state();
    return { running: running && lastError === null, lastError };
  };
  return {
    state,
    async health() {
      return { ...state(), ...(await readModelLag(options.source, options.target, schema)) };
    },
    stop: () => subscription.stop(),
  };
}
