import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { databaseConfigFromEnv, openDatabase } from '@portal/platform/store/open';
import type { Portal } from './portal.ts';
import type { EmbeddedHttps } from './embedded-https.ts';

/**
 * `npm start`: the whole portal in one process on embedded PGlite (data under DATA_DIR), or on
 * PostgreSQL when DATABASE_URL is set, with the built console on the same port.
 */
const config = databaseConfigFromEnv();
const host = process.env.HOST ?? '0.0.0.0';
const consoleDir = resolve(import.meta.dirname, '../../console/dist');
/**
 * The built console, once there is one: `npm start` (deploy/scripts/start.mjs) builds it while the
 * portal starts, and says so (PORTAL_CONSOLE_BUILD=pending, then a message when it is built).
 */
const consoleBuilt =
  process.env.PORTAL_CONSOLE_BUILD === 'pending' && process.send
    ? new Promise<void>((done) => {
        const built = (message: unknown) => {
          if (message !== 'console-built') return; // only this word counts on the channel
          process.off('message', built);
          done();
        };
        process.on('message', built);
      })
    : Promise.resolve();
const builtConsole = () =>
  consoleBuilt.then(() => {
    process.disconnect?.(); // the channel kept this process alive; nothing more comes on it
    return existsSync(resolve(consoleDir, 'index.html')) ? consoleDir : undefined;
  });
const logger = {
  level: process.env.LOG_LEVEL ?? 'info',
  transport: process.stdout.isTTY ? { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } : undefined,
};

// The embedded database takes seconds to open the first time: it opens while the rest of the
// portal's code loads (imported only now, not before this module runs).
const opening = openDatabase({ ...config, onError: (error) => console.warn('database:', error.message) });
opening.catch(() => {}); // reported below, once awaited
const [
  { portFromEnv, sessionLifetimesFromEnv, trustProxyFromEnv, uploadsDirFromEnv },
  { startPortal },
  { embeddedSessionSecret },
  { embeddedHttpsFromEnv, listenSecure, phoneLines },
  { dataKeysFromEnv, useDataKeys },
] = await Promise.all([
  import('@portal/platform/http/service-config'),
  import('./portal.ts'),
  import('./session-secret.ts'),
  import('./embedded-https.ts'),
  import('@portal/platform/privacy/data-key'),
]);
// The local authority's certificate (made on the first start) while the database opens.
const httpsReady = embeddedHttpsFromEnv(process.env, config.dataDir);
httpsReady.catch(() => {}); // reported below, once awaited
const db = await opening.catch((error: Error) => {
  console.error(`\n  The portal could not start: ${error.message}\n`);
  process.exit(1);
});
let portal: Portal;
let https: EmbeddedHttps | null = null;
let port: number;
try {
  port = portFromEnv(process.env, 'PORT', 3000);
  useDataKeys(dataKeysFromEnv(process.env, config.dataDir));
  https = await httpsReady;
  portal = await startPortal({
    db,
    // On PostgreSQL the projector runs in a thread of its own (README, Performance).
    projectorThread: config.databaseUrl ? { connectionString: config.databaseUrl } : undefined,
    sessionSecret: embeddedSessionSecret(config.dataDir),
    uploadsDir: uploadsDirFromEnv(),
    warmAddresses: true,
    secureCookie: process.env.COOKIE_SECURE === 'true',
    trustProxy: trustProxyFromEnv(),
    sessions: { lifetimes: sessionLifetimesFromEnv() },
    logger,
    admin: { username: process.env.ADMIN_USERNAME, password: process.env.ADMIN_PASSWORD },
    consoleDir: builtConsole(),
    tls: https ? { ...https.tls, port: https.port } : undefined,
    certificateSweep: { publicUrl: `http://localhost:${port}` },
  });
  await portal.app.listen({ port, host });
  if (https) await listenSecure(portal.app.secureServer!, https.port, host);
} catch (error) {
  await db.close();
  console.error(`\n  The portal could not start: ${(error as Error).message}\n`);
  process.exit(1);
}

const url = `http://localhost:${port}`;
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${resolve(config.dataDir)}`;
const lines = [``, `  Course portal is running at ${url}`];
if (https) lines.push(`  and at https://localhost:${https.port}`);
lines.push(`  Data: ${where}`, `  API documentation: ${url}/api/docs`);
if (!process.env.DATA_KEY) {
  lines.push(
    `  Personal-data key: ${resolve(config.dataDir, 'data-key')} (back it up apart from the data: without it no name or contact can be read)`,
  );
}
if (portal.firstAdmin?.generatedPassword) {
  lines.push(
    `  Sign in as the first admin: username ${portal.firstAdmin.username}, password ${portal.firstAdmin.generatedPassword}`,
    `  (generated now and shown only this once; set ADMIN_PASSWORD before the first start to choose it)`,
  );
} else if (portal.firstAdmin) {
  lines.push(`  Sign in as the first admin: username ${portal.firstAdmin.username}, with ADMIN_PASSWORD`);
} else {
  lines.push(
    `  Sign in with the admin account created on the first start (${process.env.ADMIN_USERNAME ?? 'admin01'} by default)`,
  );
}
if (https && host !== '127.0.0.1' && host !== 'localhost') lines.push(...(await phoneLines(https, port)));
console.log(lines.join('\n') + '\n');

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await portal.close();
  await db.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
