import type { Kafka } from 'kafkajs';

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

/**
 * kafkajs, loaded when a relay or a projector first needs it: a portal without KAFKA_BROKERS never
 * loads it (80 ms of its main thread at every start; docs/performance.md, machine AL).
 */
export const kafkajs = () => import('kafkajs');

export async function kafkaClient(settings: KafkaSettings): Promise<Kafka> {
  const { Kafka, logLevel } = await kafkajs();
  return new Kafka({ clientId: settings.clientId, brokers: settings.brokers, logLevel: logLevel.WARN });
}

/**
 * Creates the topic when it is missing (kept forever: a projector starting on empty read models
 * reads it from the beginning) and answers how many partitions it has.
 */
export async function ensureTopic(kafka: Kafka, topic = EVENTS_TOPIC): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = await admin.listTopics();
    if (!existing.includes(topic)) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: [
          {
            topic,
            numPartitions: EVENTS_PARTITIONS,
            replicationFactor: 1,
            configEntries: [{ name: 'retention.ms', value: '-1' }],
          },
        ],
      });
    }
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
    return metadata.topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}
