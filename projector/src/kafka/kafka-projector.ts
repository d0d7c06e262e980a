import { hostname } from 'node:os';
import type { Consumer } from 'kafkajs';
import { EVENTS_TOPIC, ensureTopic, kafkaClient } from '@portal/platform/distribution/kafka';
import { decodeMessage } from '@portal/platform/distribution/messages';
import { readModelLag } from '@portal/platform/read-models/checkpoint';
import type { EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import type { Projection } from '../projection.ts';
import { type PartitionBatch, applyPartitionBatches } from './apply-partition.ts';
import { groupByPartition } from './group-apply.ts';
import type { RetryPolicy } from '../apply.ts';
import { readFaults } from '@portal/platform/read-models/projection-faults';

export interface KafkaProjectorOptions {
  source: EventStore;
  target: SqlDatabase;
  projections: readonly Projection[];
  schema: string;
  kafka: {
    brokers: string[];
    topic?: string;
    groupId?: string;
    /** How this process is named on the lag screen; by default host/pid. */
    name?: string;
    /** Kafka's session timeout: how soon the others take over the partitions of a projector that died. */
    sessionTimeoutMs?: number;
  };
  onError?: (error: unknown) => void;
  /** How soon a projection set aside is tried again. */
  retry?: RetryPolicy;
}

/** Messages applied per transaction: a large fetch is split so no transaction runs long. */
const CHUNK = 500;
const RETRY_DELAYS_MS = [100, 500, 1000, 2000, 5000];
/** The projectors' consumer group on a topic. */
export const projectorGroup = (topic: string) => `${topic}.projector`;

/**
 * A projector in a consumer group on the events topic: Kafka shares the partitions among the
 * processes in the group and hands a dead one's partitions to the others. Each batch is applied
 * with its partition's watermark (apply-partition.ts); the offset is committed to Kafka only
 * afterwards, so a crash redelivers, and the watermark makes the redelivery change nothing.
 */
export async function startKafkaProjector(options: KafkaProjectorOptions) {
  const topic = options.kafka.topic ?? EVENTS_TOPIC;
  const name = options.kafka.name ?? `${hostname()}/${process.pid}`;
  const kafka = await kafkaClient({ brokers: options.kafka.brokers, clientId: name });
  const partitions = await ensureTopic(kafka, topic);
  const sessionTimeout = options.kafka.sessionTimeoutMs ?? 10_000;
  const consumer: Consumer = kafka.consumer({
    groupId: options.kafka.groupId ?? projectorGroup(topic),
    sessionTimeout,
    heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
  });
  const state = { running: true, lastError: null as string | null, assigned: [] as number[], applied: 0 };
  const failed = (error: unknown) => {
    state.lastError = error instanceof Error ? error.message : String(error);
    options.onError?.(error);
  };

  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    state.assigned = [...(payload.memberAssignment[topic] ?? [])].sort((a, b) => a - b);
    // Shown at once on the lag screen; the batches keep it true from then on.
    void options.target
      .query(
        `UPDATE ${options.schema}.partition_progress SET owner = $3 WHERE topic = $1 AND partition = ANY($2::int[])`,
        [topic, state.assigned, name],
      )
      .catch((error: unknown) => options.onError?.(error));
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    failed(payload.error);
    if (!payload.restart) state.running = false;
  });

  // The batches of one fetch applied in one transaction (each partition stays in order).
  const apply = groupByPartition((batches: PartitionBatch[]) =>
    applyPartitionBatches(options.target, options.schema, options.projections, batches),
  );

  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    // Every partition's batch handed over at once, so they can be applied together.
    partitionsConsumedConcurrently: partitions,
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
      for (let from = 0; from < batch.messages.length; from += CHUNK) {
        const chunk = batch.messages.slice(from, from + CHUNK);
        const last = chunk[chunk.length - 1]!.offset;
        const work = {
          topic,
          partition: batch.partition,
          partitions,
          owner: name,
          messages: chunk.map(decodeMessage),
          nextOffset: Number(last) + 1,
          retry: options.retry,
        };
        for (let attempt = 0; ; attempt++) {
          if (!isRunning() || isStale()) return;
          try {
            const result = await apply(work);
            state.applied += result.applied;
            state.lastError = null;
            break;
          } catch (error) {
            // A database outage or a deadlock with another projector: try again, staying in the group.
            failed(error);
            await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[Math.min(attempt, 4)]));
            await heartbeat();
          }
        }
        resolveOffset(last);
        await commitOffsetsIfNecessary();
        await heartbeat();
      }
    },
  });

  return {
    name,
    state: () => ({ running: state.running && state.lastError === null, lastError: state.lastError }),
    /** This process: the partitions it holds, how many events it applied, how soon others replace it. */
    member: () => ({
      name,
      topic,
      partitions: state.assigned,
      appliedEvents: state.applied,
      sessionTimeoutMs: sessionTimeout,
    }),
    async health() {
      return {
        running: state.running && state.lastError === null,
        lastError: state.lastError,
        ...(await readModelLag(options.source, options.target, options.schema)),
        failing: await readFaults(options.target, options.schema),
      };
    },
    async stop() {
      state.running = false;
      await consumer.disconnect();
    },
  };
}
export type KafkaProjector = Awaited<ReturnType<typeof startKafkaProjector>>;
