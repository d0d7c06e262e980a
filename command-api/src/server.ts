import { attendanceConfig } from '@portal/platform/attendance/config';
import { installHealth } from '@portal/platform/http/health';
import { installMetrics } from '@portal/platform/http/metrics';
import { createHttpServer } from '@portal/platform/http/server-kit';
import { serveUntilStopped } from '@portal/platform/http/serve';
import { serviceConfigFromEnv, uploadsDirFromEnv } from '@portal/platform/http/service-config';
import { createEventStore } from '@portal/platform/store/event-store';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { rewrapKeys } from '@portal/platform/privacy/personal-data';
import { ensureFirstAdmin } from './accounts/first-admin.ts';
import { commandApi, prepareCommandTables } from './app.ts';
import { certificateSweepFromEnv } from './certificates/sweep.ts';

/**
 * command-api alone (production): DATABASE_URL, SESSION_SECRET, PORT (3001), UPLOADS_DIR (shared
 * with query-api), and the scanning settings (PASS_SECRET, SCAN_OPENS_EARLY_MINUTES, ...).
 */
const config = serviceConfigFromEnv(3001);
useDataKeys(dataKeysFromEnv());
const db = await openDatabase({
  ...databaseConfigFromEnv(),
  onError: (error) => console.warn('database:', error.message),
});
const app = await createHttpServer({ title: 'command-api', ...config, revocations: db, logger: true });
await createEventStoreSchema(db);
await prepareCommandTables(db);
const rewrapped = await rewrapKeys(db);
if (rewrapped > 0) app.log.info(`${rewrapped} personal-data keys wrapped with the current DATA_KEY`);
const store = createEventStore(db);
const admin = await ensureFirstAdmin(db, store, {
  username: process.env.ADMIN_USERNAME,
  password: process.env.ADMIN_PASSWORD,
});
if (admin?.generatedPassword) {
  app.log.warn(`First admin ${admin.username} created with password ${admin.generatedPassword} (shown once).`);
}
const attendance = attendanceConfig(config.sessionSecret);
await app.register(commandApi, {
  db,
  store,
  uploadsDir: uploadsDirFromEnv(),
  attendance,
  certificateSweep: certificateSweepFromEnv(process.env, attendance, `http://localhost:${config.port}`),
});
installHealth(app, { service: 'command-api', store, readModels: db });
installMetrics(app, { service: 'command-api', store, readModels: db, pools: { primary: () => db.stats?.() ?? null } });
await serveUntilStopped(app, config, () => db.close());
