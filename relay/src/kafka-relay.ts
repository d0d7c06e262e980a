import type { Message, Producer } from 'kafkajs';
import { type Checkpoint, type EventStore, START, checkpointOf } from '@portal/platform/store/port';
import { withSchemaLock } from '@portal/platform/store/schema-lock';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { type Subscription, subscribeToAll } from '@portal/platform/store/subscription';
import {
  EVENTS_TOPIC,
  type KafkaSettings,
  ensureTopic,
  kafkaClient,
  kafkajs,
} from '@portal/platform/distribution/kafka';
import { encodeEvent, encodeTick } from '@portal/platform/distribution/messages';

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
  /** The longest a partition waits for its tick (100 ms): fewer ticks under load, a short wait. */
  tickEveryMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The relay: follows the log in its global order (the same catch-up subscription the projector
 * uses, so no committed event is skipped) and publishes each batch to the topic, keyed by stream
 * id, before moving its own checkpoint; a tick to every partition (messages.ts) follows within
 * `tickEveryMs`. A crash between the publishing and the checkpoint publishes the batch again:
 * each message carries its global position, and consumers drop what they already applied.
 */
export async function startRelay(options: RelayOptions) {
  const topic = options.kafka.topic ?? EVENTS_TOPIC;
  await createRelayTable(options.db);
  const kafka = await kafkaClient(options.kafka);
  const { Partitioners } = await kafkajs();
  const partitions = await ensureTopic(kafka, topic);
  // Idempotent, one request in flight: the broker keeps each partition in the order sent.
  // Named, so kafkajs need not warn that its default changed: keys are hashed with murmur2, as Java clients do.
  const newProducer = async () => {
    const made = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await made.connect();
    return made;
  };
  let producer: Producer = await newProducer();
  let broken = false;
  let sending: Promise<unknown> = Promise.resolve();
  /**
   * Sends one request at a time, a batch's and a tick's alike: an idempotent producer numbers each
   * partition's batches as it builds them, and two sends at once can be numbered alike (kafkajs
   * issue #598). After a failed send the producer is replaced: after a broker restart CI saw
   * kafkajs's producer refused every send from then on ("The broker received an out of order
   * sequence number"), and a new one starts its numbering afresh under a new producer id. What
   * it sends again that the broker already had, consumers drop by its position.
   */
  const send = (messages: Message[]) => {
    const sent = sending.then(async () => {
      if (broken) {
        await producer.disconnect().catch(() => {});
        producer = await newProducer();
        broken = false;
      }
      try {
        await producer.send({ topic, acks: -1, messages });
      } catch (error) {
        broken = true;
        throw error;
      }
    });
    sending = sent.catch(() => {});
    return sent;
  };
  const tickEveryMs = options.tickEveryMs ?? 100;
  const ticks = (checkpoint: Checkpoint) =>
    Array.from({ length: partitions }, (_, partition) => encodeTick(checkpoint, partition));
  let lastTickAt = 0;
  let owed: Checkpoint | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = async () => {
    timer = null;
    const checkpoint = owed;
    owed = null;
    if (!checkpoint) return;
    lastTickAt = Date.now();
    await send(ticks(checkpoint)).catch((error: unknown) => {
      options.onError?.(error);
      owe(checkpoint);
    });
  };
  /** A tick for `checkpoint` (whose events are already on the broker) within tickEveryMs. */
  const owe = (checkpoint: Checkpoint) => {
    owed = checkpoint;
    timer ??= setTimeout(() => void tick(), Math.max(0, lastTickAt + tickEveryMs - Date.now()));
  };
  // A relay that stopped may have owed a tick: consumers must be able to reach its checkpoint.
  const start = await readCheckpoint(options.db, topic);
  if (start.position > 0) owe(start);

  let published = 0;
  const subscription: Subscription = subscribeToAll(options.store, {
    batchSize: options.batchSize ?? 500,
    from: () => readCheckpoint(options.db, topic),
    handle: async (batch) => {
      const last = checkpointOf(batch[batch.length - 1]!);
      // Ticks at most every tickEveryMs: each costs every partition a transaction downstream. When
      // due, they travel with the batch, after its events (one request keeps each partition's order).
      const due = !timer && Date.now() - lastTickAt >= tickEveryMs;
      if (due) lastTickAt = Date.now();
      await send([...batch.map(encodeEvent), ...(due ? ticks(last) : [])]);
      if (!due) owe(last);
      await writeCheckpoint(options.db, topic, last);
      published += batch.length;
    },
    onError: options.onError,
  });
  return {
    topic,
    state: () => ({ ...subscription.state(), published }),
    async stop() {
      await subscription.stop();
      if (timer) clearTimeout(timer);
      await tick();
      await sending;
      await producer.disconnect();
    },
  };
}
export type Relay = Awaited<ReturnType<typeof startRelay>>;
