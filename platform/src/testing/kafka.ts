import { kafkaBrokersFromEnv } from '../distribution/kafka.ts';

/** Why the Kafka tests cannot run here, or null. In CI a missing broker is a failure, not a skip. */
export function kafkaSkipReason(): string | null {
  if (kafkaBrokersFromEnv()) return null;
  const reason =
    'KAFKA_BROKERS is not set: the Kafka tests are SKIPPED (start a broker with deploy/scripts/kafka.sh start).';
  if (process.env.CI) throw new Error(`${reason} CI must run them.`);
  console.warn(`\n!!! ${reason}\n`);
  return reason;
}

export const testBrokers = () => kafkaBrokersFromEnv() ?? [];

/** A topic of the test's own, so runs never see each other's messages. */
export const testTopic = (name: string) =>
  `test.${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
