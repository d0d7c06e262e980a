import { type ReadModelLag, readCheckpoint, readModelLag } from '@portal/platform/read-models/checkpoint';
import { type ProjectionFault, readFaults } from '@portal/platform/read-models/projection-faults';
import { NOTIFY_EVERY_MS } from '@portal/platform/store/append-notifier';
import type { EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type Subscription, type SubscriptionState, subscribeToAll } from '@portal/platform/store/subscription';
import { DEFAULT_RETRY, type RetryPolicy, applyBatch, retryFault } from './apply.ts';
import { builtFromKafka, outdatedProjections, prepareReadModels } from './read-models.ts';
import type { Projection } from './projection.ts';
import { rebuildProjections, rebuildReadModels } from './rebuild.ts';
import { type KafkaProjectorOptions, startKafkaProjector } from './kafka/kafka-projector.ts';

export interface ProjectorHealth extends ReadModelLag {
  running: boolean;
  lastError: string | null;
  /** Projections set aside at an event they could not apply; the others keep up meanwhile. */
  failing: ProjectionFault[];
}

export interface Projector {
  /** Whether it is following the log, without asking the database. */
  state(): { running: boolean; lastError: string | null };
  health(): Promise<ProjectorHealth>;
  /** With Kafka: this process's name, its partitions and how many events it applied. */
  member?: () => {
    name: string;
    topic: string;
    partitions: number[];
    appliedEvents: number;
    sessionTimeoutMs: number;
  };
  stop(): Promise<void>;
}

export interface ProjectorOptions {
  source: EventStore;
  target: SqlDatabase;
  projections: readonly Projection[];
  schema?: string;
  pollMs?: number;
  /**
   * Once caught up, how long to gather the appends after one that wakes it before applying them
   * as one batch (subscribeToAll's gatherMs), each live batch being a transaction of several
   * statements: 10 ms on PostgreSQL and 2 ms on PGlite by default (GATHER_MS).
   */
  gatherMs?: number;
  onError?: (error: unknown) => void;
  /** Progress of the rebuild run at start when the read models were built by older projections. */
  onRebuildProgress?: (done: number, total: number) => void;
  /**
   * Consume the log from Kafka in a consumer group (several processes share the partitions)
   * instead of reading it directly; null or omitted: read the log directly.
   */
  kafka?: KafkaProjectorOptions['kafka'] | null;
  /** How soon a projection that could not apply an event is tried again (doubling up to `max`). */
  retryMs?: RetryPolicy;
}

const REBUILD_LOCK = 7_415_826_392;
/**
 * Measured on machine R (docs/performance.md): on PostgreSQL at 4 scanners, the CPU of a scan 15%
 * less, the read models 5 to 8 ms later; on PGlite, whose one thread runs the batches and the
 * requests, 387 to 401 scans/s instead of 255, and at 16 scanners the read models sooner. On
 * PostgreSQL it is as long as the store spaces its NOTIFYs (a shorter one would show no append
 * sooner: those after it wait for the next NOTIFY): 10 ms since machine AK. PGlite's 2 ms was
 * kept there: 5 or 10 ms cost less CPU at 4 scanners but not at 16, where 10 ms took the read
 * models past PGlite's 50 ms at p99.
 */
const GATHER_MS = { postgres: NOTIFY_EVERY_MS.postgres, pglite: 2 } as const;

/**
 * Follows the log from the stored checkpoint and keeps the read models up to date. A database
 * outage is retried until it is over; health says honestly whether it is running and how far
 * behind it is.
 */
export async function startProjector(options: ProjectorOptions): Promise<Projector> {
  const schema = options.schema ?? 'rm';
  await rebuildIfNeeded(options, schema);
  await prepareReadModels(options.target, schema, options.projections);
  const retry = options.retryMs ?? DEFAULT_RETRY;
  if (options.kafka) {
    const projector = await startKafkaProjector({ ...options, schema, kafka: options.kafka, retry });
    const retryingKafka = retryFaults(options, schema, retry);
    return {
      ...projector,
      async stop() {
        await retryingKafka.stop();
        await projector.stop();
      },
    };
  }
  const subscription: Subscription = subscribeToAll(options.source, {
    from: () => readCheckpoint(options.target, schema),
    handle: async (batch) => {
      await applyBatch(options.target, schema, options.projections, batch, retry);
    },
    pollMs: options.pollMs,
    gatherMs: options.gatherMs ?? GATHER_MS[options.target.kind],
    onError: options.onError,
  });
  const retrying = retryFaults(options, schema, retry);
  const state = () => {
    const { running, lastError }: SubscriptionState = subscription.state();
    return { running: running && lastError === null, lastError };
  };
  return {
    state,
    async health() {
      return {
        ...state(),
        ...(await readModelLag(options.source, options.target, schema)),
        failing: await readFaults(options.target, schema),
      };
    },
    async stop() {
      await retrying.stop();
      await subscription.stop();
    },
  };
}

/**
 * Tries each projection set aside again when its time has come, until stopped; a failure to
 * reach the database is reported and tried again on the next tick. Loud on purpose: every
 * failed attempt is reported with the projection, the event and the error.
 */
function retryFaults(options: ProjectorOptions, schema: string, retry: RetryPolicy) {
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let wake = () => {};
  const tick = Math.max(20, Math.min(1000, retry.first));
  const loop = (async () => {
    while (running) {
      try {
        const due = (await readFaults(options.target, schema)).filter(
          (fault) => Date.parse(fault.nextAttemptAt) <= Date.now(),
        );
        for (const fault of due) {
          if (!running) break;
          let outcome: Awaited<ReturnType<typeof retryFault>>;
          do outcome = await retryFault(options.target, schema, options.projections, fault.projection, retry);
          while (outcome === 'progress' && running);
          if (outcome === 'failed') {
            options.onError?.(new ProjectionFailing(fault.projection, fault.position, fault.error));
          }
        }
      } catch (error) {
        options.onError?.(error);
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, tick);
      });
    }
  })();
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      wake();
      await loop;
    },
  };
}

export class ProjectionFailing extends Error {
  constructor(
    readonly projection: string,
    readonly position: number,
    readonly reason: string,
  ) {
    super(`projection ${projection} cannot apply the event at position ${position}: ${reason}`);
    this.name = 'ProjectionFailing';
  }
}

/**
 * Rebuilds the read models from the log when they were built by other versions of the
 * projections, or, for a projector reading the log directly, by projectors consuming Kafka
 * (their partitions may be ahead of the checkpoint). Projector processes starting together on
 * PostgreSQL take turns, so only the first rebuilds.
 */
async function rebuildIfNeeded(options: ProjectorOptions, schema: string): Promise<void> {
  // Read models written by projectors on Kafka may be ahead in some partitions: all rebuilt.
  const everything = async () => !options.kafka && (await builtFromKafka(options.target, schema));
  const rebuild = async () => {
    const outdated = await outdatedProjections(options.target, schema, options.projections);
    const all = outdated.length === options.projections.length || (await everything());
    if (outdated.length === 0 && !all) return;
    const common = {
      store: options.source,
      db: options.target,
      projections: options.projections,
      schema,
      onProgress: options.onRebuildProgress,
    };
    if (all) await rebuildReadModels(common);
    else await rebuildProjections({ ...common, rebuilt: outdated });
  };
  const needed = async () =>
    (await outdatedProjections(options.target, schema, options.projections)).length > 0 || (await everything());
  // PGlite has one connection and one process: there is nobody to take turns with.
  if (options.target.kind === 'pglite' || !(await needed())) return rebuild();
  await options.target.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock($1)`, [REBUILD_LOCK]);
    await rebuild();
  });
}
