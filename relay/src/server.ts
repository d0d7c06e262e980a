import Fastify from 'fastify';
import { installMetrics } from '@portal/platform/http/metrics';
import { serveUntilStopped } from '@portal/platform/http/serve';
import { portFromEnv } from '@portal/platform/http/service-config';
import { createEventStore } from '@portal/platform/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { kafkaBrokersFromEnv } from '@portal/platform/distribution/kafka';
import { startRelay } from './kafka-relay.ts';

/**
 * The relay alone (production): publishes the log in DATABASE_URL to Kafka at KAFKA_BROKERS.
 * Health on PORT (3004): 200 with what it has published, 503 after an error it has not yet
 * recovered from.
 */
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must be set when the relay runs alone.');
const brokers = kafkaBrokersFromEnv();
if (!brokers) throw new Error('KAFKA_BROKERS must be set for the relay (host:port[,host:port]).');
const app = Fastify({ logger: true });
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => app.log.warn({ err: error }, 'database'),
});
await createEventStoreSchema(db);
const store = createEventStore(db);
const relay = await startRelay({
  store,
  db,
  kafka: { brokers, clientId: 'portal-relay', topic: process.env.KAFKA_TOPIC || undefined },
  onError: (error) => app.log.error({ err: error }, 'relay batch failed; retrying'),
});
installMetrics(app, {
  service: 'relay',
  store,
  relayCheckpoint: () => relay.state().checkpoint,
  pools: { primary: () => db.stats?.() ?? null },
});
app.get('/api/health', async (_request, reply) => {
  const state = relay.state();
  return reply.code(state.lastError ? 503 : 200).send({ service: 'relay', topic: relay.topic, ...state });
});
await serveUntilStopped(
  app,
  { port: portFromEnv(process.env, 'PORT', 3004), host: process.env.HOST ?? '127.0.0.1' },
  async () => {
    await relay.stop();
    await db.close();
  },
);
