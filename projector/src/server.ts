import Fastify from 'fastify';
import { createEventStore } from '@portal/events/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/events/store/open';
import { createEventStoreSchema } from '@portal/events/store/schema';
import { projections } from './projections/index.ts';
import { startProjector } from './projector.ts';

/** The projector alone (production): follows the log in DATABASE_URL; health on PORT (3002). */
const app = Fastify({ logger: true });
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => app.log.warn({ err: error }, 'database'),
});
await createEventStoreSchema(db);
const projector = await startProjector({
  source: createEventStore(db),
  target: db,
  projections,
  onError: (error) => app.log.error({ err: error }, 'projector batch failed; retrying'),
});
app.get('/health', async (_request, reply) => {
  const health = await projector.health().catch((error: Error) => ({ running: false, lastError: error.message }));
  return reply.code(health.running ? 200 : 503).send({ service: 'projector', ...health });
});
const close = async () => {
  await app.close();
  await projector.stop();
  await db.close();
};
process.once('SIGTERM', () => void close());
process.once('SIGINT', () => void close());
await app.listen({ port: Number(process.env.PORT ?? 3002), host: process.env.HOST ?? '127.0.0.1' });
