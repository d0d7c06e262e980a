import Fastify from 'fastify';
import { kafkaBrokersFromEnv } from '@portal/platform/distribution/kafka';
import { installHealth } from '@portal/platform/http/health';
import { installMetrics } from '@portal/platform/http/metrics';
import { serveUntilStopped } from '@portal/platform/http/serve';
import { portFromEnv } from '@portal/platform/http/service-config';
import { createEventStore } from '@portal/platform/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { projections } from './projections/index.ts';
import { startProjector } from './projector.ts';

/**
 * The projector alone (production): follows the log in DATABASE_URL, or with KAFKA_BROKERS
 * consumes it from Kafka in the projectors' consumer group (start several to share the work);
 * health on PORT (3002). PROJECTOR_NAME names it on the lag screen (default host/pid).
 */
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must be set when the projector runs alone.');
useDataKeys(dataKeysFromEnv());
const brokers = kafkaBrokersFromEnv();
const app = Fastify({ logger: true });
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => app.log.warn({ err: error }, 'database'),
});
await createEventStoreSchema(db);
const store = createEventStore(db);
const projector = await startProjector({
  source: store,
  target: db,
  projections,
  kafka: brokers && {
    brokers,
    topic: process.env.KAFKA_TOPIC || undefined,
    name: process.env.PROJECTOR_NAME || undefined,
    sessionTimeoutMs: process.env.KAFKA_SESSION_TIMEOUT_MS ? Number(process.env.KAFKA_SESSION_TIMEOUT_MS) : undefined,
  },
  onError: (error) => app.log.error({ err: error }, 'projector batch failed; retrying'),
});
installHealth(app, { service: 'projector', store, readModels: db, projector });
installMetrics(app, { service: 'projector', store, readModels: db, pools: { primary: () => db.stats?.() ?? null } });
await serveUntilStopped(
  app,
  { port: portFromEnv(process.env, 'PORT', 3002), host: process.env.HOST ?? '127.0.0.1' },
  async () => {
    await projector.stop();
    await db.close();
  },
);
