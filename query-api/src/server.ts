import { attendanceConfig } from '@portal/platform/attendance/config';
import { installHealth } from '@portal/platform/http/health';
import { createHttpServer } from '@portal/platform/http/server-kit';
import { serveUntilStopped } from '@portal/platform/http/serve';
import { serviceConfigFromEnv, uploadsDirFromEnv } from '@portal/platform/http/service-config';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { queryApi } from './app.ts';

/** query-api alone (production): DATABASE_URL, SESSION_SECRET, DATA_KEY, PORT (3003), UPLOADS_DIR (shared with command-api). Reads what the projector wrote. */
const config = serviceConfigFromEnv(3003);
// Opens the read models' personal columns (their key is kept wrapped with DATA_KEY).
useDataKeys(dataKeysFromEnv());
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => console.warn('database:', error.message),
});
// Whichever service starts first makes the log's schema, where the read models' key is kept.
await createEventStoreSchema(db);
const attendance = attendanceConfig(config.sessionSecret);
const app = await createHttpServer({ title: 'query-api', ...config, revocations: db, logger: true });
const store = createEventStore(db);
await app.register(queryApi, {
  db,
  store,
  uploadsDir: uploadsDirFromEnv(),
  warmAddresses: true,
  passSecret: attendance.passSecret,
  scanMargins: attendance,
});
installHealth(app, { service: 'query-api', store, readModels: db });
await serveUntilStopped(app, config, () => db.close());
