import { attendanceConfig } from '@portal/platform/attendance/config';
import { installHealth } from '@portal/platform/http/health';
import { installMetrics } from '@portal/platform/http/metrics';
import { serveConsole } from '@portal/platform/http/serve-console';
import { createHttpServer } from '@portal/platform/http/server-kit';
import { serveUntilStopped } from '@portal/platform/http/serve';
import { serviceConfigFromEnv, uploadsDirFromEnv } from '@portal/platform/http/service-config';
import { readModelKey } from '@portal/platform/read-models/sealed-columns';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import { readingReplica, replicaCaughtUp } from '@portal/platform/store/read-replica';
import { dataKeysFromEnv, useDataKeys } from '@portal/platform/privacy/data-key';
import { queryApi } from './app.ts';

/**
 * query-api alone (production): DATABASE_URL, SESSION_SECRET, DATA_KEY, PORT (3003), UPLOADS_DIR
 * (shared with command-api). Reads what the projector wrote: from a streaming replica when
 * READ_DATABASE_URL names one (sessions, the log and LISTEN stay on the primary), and serves the
 * built console from CONSOLE_DIR when set.
 */
const config = serviceConfigFromEnv(3003);
// Opens the read models' personal columns (their key is kept wrapped with DATA_KEY).
useDataKeys(dataKeysFromEnv());
const onError = (error: Error) => console.warn('database:', error.message);
const primary = await openDatabase({ ...databaseConfigFromEnv(), onError });
// Whichever service starts first makes the log's schema, where the read models' key is kept.
await createEventStoreSchema(primary);
const replicaUrl = process.env.READ_DATABASE_URL;
let db = primary;
if (replicaUrl) {
  await readModelKey(primary); // made on the primary, so the replica has it to read
  const replica = await openDatabase({ databaseUrl: replicaUrl, dataDir: '', onError });
  if (!(await replicaCaughtUp(primary, replica))) {
    throw new Error(`The replica at READ_DATABASE_URL has not caught up with DATABASE_URL in 30 s.`);
  }
  let warned = 0;
  db = readingReplica(replica, primary, (error) => {
    if (Date.now() - warned < 10_000) return;
    warned = Date.now();
    console.warn(`replica unavailable, reading the primary meanwhile: ${error.message}`);
  });
}
const attendance = attendanceConfig(config.sessionSecret);
// Sessions are checked and noted on the primary: a logout or revocation holds at once.
const app = await createHttpServer({ title: 'query-api', ...config, revocations: primary, logger: true });
const store = createEventStore(primary);
await app.register(queryApi, {
  db,
  store,
  uploadsDir: uploadsDirFromEnv(),
  warmAddresses: true,
  passSecret: attendance.passSecret,
  scanMargins: attendance,
  replica: Boolean(replicaUrl),
});
installHealth(app, { service: 'query-api', store, readModels: db });
installMetrics(app, {
  service: 'query-api',
  store,
  readModels: db,
  pools: { primary: () => primary.stats?.() ?? null, ...(db !== primary && { replica: () => db.stats?.() ?? null }) },
});
if (process.env.CONSOLE_DIR) await app.register(serveConsole, { root: process.env.CONSOLE_DIR });
await serveUntilStopped(app, config, async () => {
  if (db !== primary) await db.close();
  await primary.close();
});
