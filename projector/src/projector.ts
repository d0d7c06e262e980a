import { type ReadModelLag, readCheckpoint, readModelLag } from '@portal/events/read-models/checkpoint';
import type { EventStore } from '@portal/events/store/port';
import type { SqlDatabase } from '@portal/events/store/sql';
import { type Subscription, type SubscriptionState, subscribeToAll } from '@portal/events/store/subscription';
import { applyBatch, prepareReadModels, readModelsOutdated } from './apply.ts';
import type { Projection } from './projection.ts';
import { rebuildReadModels } from './rebuild.ts';

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
  /** Progress of the rebuild run at start when the read models were built by older projections. */
  onRebuildProgress?: (done: number, total: number) => void;
}

/**
 * Follows the log from the stored checkpoint and keeps the read models up to date. A database
 * outage is retried until it is over; health says honestly whether it is running and how far
 * behind it is.
 */
export async function startProjector(options: ProjectorOptions): Promise<Projector> {
  const schema = options.schema ?? 'rm';
  if (await readModelsOutdated(options.target, schema, options.projections)) {
    await rebuildReadModels({
      store: options.source,
      db: options.target,
      projections: options.projections,
      schema,
      onProgress: options.onRebuildProgress,
    });
  }
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
