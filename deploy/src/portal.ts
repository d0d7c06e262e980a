import type { FastifyServerOptions } from 'fastify';
import { ensureFirstAdmin } from '@portal/command-api/accounts/first-admin';
import { commandApi, prepareCommandTables } from '@portal/command-api/app';
import { certificateSweepFromEnv } from '@portal/command-api/certificates/sweep';
import type { MailConfig } from '@portal/command-api/outreach/mailer';
import { type AttendanceConfig, attendanceConfig } from '@portal/platform/attendance/config';
import { kafkaBrokersFromEnv } from '@portal/platform/distribution/kafka';
import { startRelay } from '@portal/relay/kafka-relay';
import { installHealth } from '@portal/platform/http/health';
import { installMetrics } from '@portal/platform/http/metrics';
import { createHttpServer } from '@portal/platform/http/server-kit';
import type { TrustProxy } from '@portal/platform/http/service-config';
import type { SessionLifetimes } from '@portal/platform/http/session';
import { createEventStore } from '@portal/platform/store/event-store';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import { createLull, keepEmbeddedStatistics } from '@portal/platform/store/embedded-statistics';
import { rewrapKeys } from '@portal/platform/privacy/personal-data';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { projections } from '@portal/projector/projections/index';
import { startProjector } from '@portal/projector/projector';
import { startProjectorThread } from '@portal/projector/thread/projector-thread';
import { queryApi } from '@portal/query-api/app';
import { serveConsole } from '@portal/platform/http/serve-console';
import { secureOriginRoute, trustRoutes } from './trust-routes.ts';

export interface PortalOptions {
  db: SqlDatabase;
  /**
   * On PostgreSQL, the database's URL: the projector then runs in a thread of its own with its
   * own connections (projector/src/thread), so its batches never wait behind the requests, for a
   * connection or for the event loop, and the read models keep up under a rush. Omitted: on
   * PGlite the projector runs in the embedded database's own thread; on PostgreSQL, in this one.
   */
  projectorThread?: { connectionString: string };
  sessionSecret: string;
  secureCookie?: boolean;
  /** Which proxies may name the client (TRUST_PROXY); none by default. */
  trustProxy?: TrustProxy;
  /** Idle and absolute session lifetimes (SESSION_IDLE_MINUTES, SESSION_MAX_HOURS); tests add a clock. */
  sessions?: { lifetimes?: SessionLifetimes; clock?: () => number };
  logger?: FastifyServerOptions['logger'];
  admin: { username?: string; password?: string };
  /** Where uploaded files (profile photos) are kept. */
  uploadsDir: string;
  /** Build the address tree just after start (npm start does; tests leave it for the first request). */
  warmAddresses?: boolean;
  /** The pass secret and scanning margins; by default from the environment (README, Configuration). */
  attendance?: AttendanceConfig;
  /** Where e-mail goes; by default SMTP_URL and MAIL_FROM from the environment. */
  mail?: MailConfig;
  /**
   * Issue certificates on their own once courses end (CERTIFICATE_SWEEP_SECONDS), with links to
   * `publicUrl` (PUBLIC_URL overrides it); `everyMs` overrides the environment (tests). Omitted:
   * only when someone asks.
   */
  certificateSweep?: { publicUrl: string; everyMs?: number };
  /**
   * Kafka brokers and topic (by default KAFKA_BROKERS and KAFKA_TOPIC): a relay in this process publishes the log, and the
   * projector here consumes it in the projectors' consumer group. Omitted or null: the projector
   * reads the log itself.
   */
  kafka?: { brokers: string[]; topic?: string } | null;
  /**
   * The built console (console/dist) to serve on the same port; omitted: API only. A promise when
   * it is still being built: the portal starts meanwhile and serves it once it is there.
   */
  consoleDir?: string | Promise<string | undefined>;
  /**
   * Also serve HTTPS (on `app.secureServer`, which the caller listens with) with this
   * certificate; with the local authority's certificate, /trust offers it to phones.
   */
  tls?: { key: string; cert: string; caCert?: string; port?: number };
  /** How often the embedded database's grown tables are looked for (ms; embedded-statistics.ts). */
  statisticsEveryMs?: number;
}

/**
 * The whole portal in one process: command-api, the projector and query-api on one database and
 * one port, as `npm start` runs it. The services are the same modules they run alone.
 */
export async function startPortal(options: PortalOptions) {
  const { db } = options;
  await createEventStoreSchema(db);
  await prepareCommandTables(db);
  // Keys stored before wrapping, or wrapped with DATA_KEY_PREVIOUS, are wrapped with DATA_KEY now.
  await rewrapKeys(db);
  const store = createEventStore(db);
  const app = await createHttpServer({
    title: 'Course portal',
    sessionSecret: options.sessionSecret,
    revocations: db,
    secureCookie: options.secureCookie,
    trustProxy: options.trustProxy,
    sessionLifetimes: options.sessions?.lifetimes,
    sessionClock: options.sessions?.clock,
    logger: options.logger,
    tls: options.tls,
  });
  const brokers = kafkaBrokersFromEnv();
  const kafka =
    options.kafka === undefined ? brokers && { brokers, topic: process.env.KAFKA_TOPIC || undefined } : options.kafka;
  const onProjectorError = (error: unknown) => app.log.error({ err: error }, 'projector batch failed; retrying');
  // The projector in a thread other than the requests': its own (PostgreSQL), or the embedded database's.
  const threaded = options.projectorThread ?? (db.startBeside ? { embedded: db } : null);
  // The first admin (its password's hash: a quarter of a second of a core) is made while the
  // projector starts (its thread loads its code and catches up): each waited for the other before
  // (docs/performance.md, machine AF). The projector follows the log, the admin's events included.
  const [admin, started] = await Promise.allSettled([
    ensureFirstAdmin(db, store, options.admin),
    threaded
      ? startProjectorThread({ database: threaded, kafka, onError: onProjectorError })
      : startProjector({ source: store, target: db, projections, kafka, onError: onProjectorError }),
  ]);
  if (admin.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    throw admin.reason;
  }
  if (started.status === 'rejected') throw started.reason;
  const [firstAdmin, projector] = [admin.value, started.value];
  const attendance = options.attendance ?? attendanceConfig(options.sessionSecret);
  // The embedded database's vacuum waits for a lull between requests (keepEmbeddedStatistics
  // below); the hook before the routes, so that it sees every request.
  const lull = createLull();
  if (db.kind === 'pglite') {
    app.addHook('onRequest', (_request, _reply, done) => {
      lull.noteActivity();
      done();
    });
  }
  await app.register(commandApi, {
    db,
    store,
    uploadsDir: options.uploadsDir,
    attendance,
    mail: options.mail,
    certificateSweep: sweepOf(options.certificateSweep, attendance),
  });
  await app.register(queryApi, {
    db,
    store,
    uploadsDir: options.uploadsDir,
    warmAddresses: options.warmAddresses,
    passSecret: attendance.passSecret,
    scanMargins: attendance,
  });
  installHealth(app, { service: 'portal', store, readModels: db, projector });
  installMetrics(app, { service: 'portal', store, readModels: db, pools: { primary: () => db.stats?.() ?? null } });
  const relay = kafka
    ? await startRelay({
        store,
        db,
        kafka: { ...kafka, clientId: 'portal-relay' },
        onError: (error) => app.log.error({ err: error }, 'relay batch failed; retrying'),
      })
    : null;
  if (options.tls?.caCert) await app.register(trustRoutes, { caCert: options.tls.caCert });
  if (options.tls?.port) await app.register(secureOriginRoute, { port: options.tls.port });
  // The embedded database's vacuum and planner statistics (PostgreSQL's autovacuum does its own).
  const statistics = keepEmbeddedStatistics(db, {
    everyMs: options.statisticsEveryMs,
    lull: lull.wait,
    onVacuumed: (table, ms) => app.log.info({ table, ms: Math.round(ms) }, 'table vacuumed and analysed'),
    onError: (error) => app.log.error({ err: error }, 'vacuuming and analysing failed; trying again later'),
  });
  const consoleDir = await options.consoleDir;
  if (consoleDir) await app.register(serveConsole, { root: consoleDir });
  return {
    app,
    store,
    firstAdmin,
    relay,
    async close() {
      await app.close();
      await statistics.stop();
      await relay?.stop();
      await projector.stop();
    },
  };
}
export type Portal = Awaited<ReturnType<typeof startPortal>>;

function sweepOf(asked: PortalOptions['certificateSweep'], attendance: AttendanceConfig) {
  if (!asked) return undefined;
  const fromEnv = certificateSweepFromEnv(process.env, attendance, asked.publicUrl);
  return fromEnv && asked.everyMs ? { ...fromEnv, everyMs: asked.everyMs } : fromEnv;
}
