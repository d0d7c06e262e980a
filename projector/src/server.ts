import Fastify from 'fastify';
import { installHealth } from '@portal/events/http/health';
import { serveUntilStopped } from '@portal/events/http/serve';
import { createEventStore } from '@portal/events/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/events/store/open';
import { createEventStoreSchema } from '@portal/events/store/schema';
import { projections } from './projections/index.ts';
import { startProjector } from './projector.ts';

/** The projector alone (production): follows the log in DATABASE_URL; health on PORT (3002). */
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must be set when the projector runs alone.');
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
  onError: (error) => app.log.error({ err: error }, 'projector batch failed; retrying'),
});
installHealth(app, { service: 'projector', store, readModels: db, projector });
await serveUntilStopped(
  app,
  { port: Number(process.env.PORT ?? 3002), host: process.env.HOST ?? '127.0.0.1' },
  async () => {
    await projector.stop();
    await db.close();
  },
);
