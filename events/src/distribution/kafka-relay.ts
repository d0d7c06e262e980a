import { Kafka, type Producer, logLevel } from 'kafkajs';
import type { StoredEvent } from '../envelope.ts';
import { type Checkpoint, type EventStore, START, checkpointOf } from '../store/port.ts';
import { withSchemaLock } from '../store/schema-lock.ts';
import type { Sql, SqlDatabase } from '../store/sql.ts';
import { type Subscription, subscribeToAll } from '../store/subscription.ts';

/** The topic every committed event is published to, keyed by stream id. */
export const EVENTS_TOPIC = 'portal.events';
/** Partitions of the topic: streams spread over them, so several projectors can share the work. */
export const EVENTS_PARTITIONS = 6;

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  topic?: string;
}

/** KAFKA_BROKERS=host:port[,host:port]; unset means no Kafka (the projector reads the log itself). */
export function kafkaBrokersFromEnv(env: NodeJS.ProcessEnv = process.env): string[] | null {
  const brokers = (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
  return brokers.length > 0 ? brokers : null;
}

export const kafkaClient = (settings: KafkaSettings) =>
  new Kafka({ clientId: settings.clientId, brokers: settings.brokers, logLevel: logLevel.WARN });

/** What a message carries: the stored event as the log holds it (personal data stays sealed). */
export const encodeEvent = (event: StoredEvent) => ({
  key: event.streamId,
  value: JSON.stringify(event),
  headers: { position: String(event.position), type: event.type },
});
export const decodeEvent = (value: Buffer | null): StoredEvent => JSON.parse(value?.toString('utf8') ?? 'null');

/** Creates the topic when it is missing and waits until its partitions have leaders. */
export async function ensureTopic(kafka: Kafka, topic = EVENTS_TOPIC): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [{ topic, numPartitions: EVENTS_PARTITIONS, replicationFactor: 1 }],
      });
    }
  } finally {
    await admin.disconnect();
  }
}

async function createRelayTable(db: SqlDatabase): Promise<void> {
  await withSchemaLock(db, async (tx) => {
    await tx.query(`CREATE SCHEMA IF NOT EXISTS relay`);
    await tx.query(`CREATE TABLE IF NOT EXISTS relay.checkpoints (
      topic text PRIMARY KEY,
      transaction_id xid8 NOT NULL,
      position bigint NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
}

async function readCheckpoint(sql: Sql, topic: string): Promise<Checkpoint> {
  const [row] = await sql.query<{ transaction_id: string; position: string }>(
    `SELECT transaction_id::text AS transaction_id, position FROM relay.checkpoints WHERE topic = $1`,
    [topic],
  );
  return row ? { transactionId: row.transaction_id, position: Number(row.position) } : START;
}

async function writeCheckpoint(sql: Sql, topic: string, checkpoint: Checkpoint): Promise<void> {
  await sql.query(
    `INSERT INTO relay.checkpoints (topic, transaction_id, position) VALUES ($1, $2::xid8, $3)
     ON CONFLICT (topic) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position,
       updated_at = now()`,
    [topic, checkpoint.transactionId, checkpoint.position],
  );
}

export interface RelayOptions {
  store: EventStore;
  /** The log's database: the relay keeps its checkpoint there. */
  db: SqlDatabase;
  kafka: KafkaSettings;
  batchSize?: number;
  onError?: (error: unknown) => void;
}

/**
 * The relay: follows the log in its global order (the same catch-up subscription the projector
 * uses, so no committed event is skipped) and publishes each batch to the topic, keyed by stream
 * id, before moving its own checkpoint. A crash between the two publishes the batch again: each
 * message carries its global position, and consumers drop what they already applied.
 */
export async function startRelay(options: RelayOptions) {
  const topic = options.kafka.topic ?? EVENTS_TOPIC;
  await createRelayTable(options.db);
  const kafka = kafkaClient(options.kafka);
  await ensureTopic(kafka, topic);
  // Idempotent, one request in flight: the broker keeps each partition in the order sent.
  const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let published = 0;
  const subscription: Subscription = subscribeToAll(options.store, {
    batchSize: options.batchSize ?? 500,
    from: () => readCheckpoint(options.db, topic),
    handle: async (batch) => {
      await producer.send({ topic, acks: -1, messages: batch.map(encodeEvent) });
      await writeCheckpoint(options.db, topic, checkpointOf(batch[batch.length - 1]!));
      published += batch.length;
    },
    onError: options.onError,
  });
  return {
    topic,
    state: () => ({ ...subscription.state(), published }),
    async stop() {
      await subscription.stop();
      await producer.disconnect();
    },
  };
}
export type Relay = Awaited<ReturnType<typeof startRelay>>;
