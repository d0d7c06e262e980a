import { attendanceConfig } from '@portal/events/attendance/config';
import { installHealth } from '@portal/events/http/health';
import { createHttpServer } from '@portal/events/http/server-kit';
import { serveUntilStopped } from '@portal/events/http/serve';
import { serviceConfigFromEnv, uploadsDirFromEnv } from '@portal/events/http/service-config';
import { createEventStore } from '@portal/events/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/events/store/open';
import { queryApi } from './app.ts';

/** query-api alone (production): DATABASE_URL, SESSION_SECRET, PORT (3003), UPLOADS_DIR (shared with command-api). Reads what the projector wrote. */
const config = serviceConfigFromEnv(3003);
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => console.warn('database:', error.message),
});
const app = await createHttpServer({ title: 'query-api', ...config, revocations: db, logger: true });
const store = createEventStore(db);
await app.register(queryApi, {
  db,
  store,
  uploadsDir: uploadsDirFromEnv(),
  warmAddresses: true,
  passSecret: attendanceConfig(config.sessionSecret).passSecret,
});
installHealth(app, { service: 'query-api', store, readModels: db });
await serveUntilStopped(app, config, () => db.close());
