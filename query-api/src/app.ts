import type { FastifyInstance } from 'fastify';
import type { EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { mountRoutes } from '@portal/platform/http/access';
import { installReadYourWrites } from './core/read-your-writes.ts';
import { NO_MARGINS, type ScanMargins } from './core/rounds-table.ts';
import { addressRoutes } from './routes/addresses/addresses.routes.ts';
import { calendarFeedRoutes, calendarLinkRoutes } from './routes/calendar/calendar.routes.ts';
import { certificateRoutes, certificateVerificationRoutes } from './routes/certificates/certificates.routes.ts';
import { auditRoutes } from './routes/attendance/audit.routes.ts';
import { liveRoutes } from './routes/attendance/live.routes.ts';
import { assistantQueryRoutes } from './routes/courses/assistants.routes.ts';
import { roundQueryRoutes } from './routes/attendance/rounds.routes.ts';
import { catalogueRoutes } from './routes/courses/catalogue.routes.ts';
import { courseQueryRoutes } from './routes/courses/courses.routes.ts';
import { profileRoutes } from './routes/profiles/profiles.routes.ts';
import { notificationRoutes } from './routes/notifications/notifications.routes.ts';
import { outreachRoutes } from './routes/outreach/outreach.routes.ts';
import { reportRoutes } from './routes/reports/reports.routes.ts';
import { registrationRoutes } from './routes/registrations/registrations.routes.ts';
import { projectorRoutes } from './routes/system/projectors.routes.ts';
import { uploadRoutes } from './routes/uploads/uploads.routes.ts';

export interface QueryApiOptions {
  /** The read models (schema rm), written only by the projector. */
  db: SqlDatabase;
  /** The log, read only: for read-your-writes and lag. */
  store: EventStore;
  /** Uploaded files (profile photos), written by command-api; served under /uploads. */
  uploadsDir: string;
  /** Signs members' attendance passes; the same secret command-api checks them with. */
  passSecret: string;
  /** The scanning margins command-api uses, so the round page knows when scanning is open (none by default). */
  scanMargins?: ScanMargins;
  /** Build the Thai address tree right after start (services and `npm start`; tests leave it lazy). */
  warmAddresses?: boolean;
  /** `db` reads a streaming replica: read-your-writes looks more often, as no NOTIFY says it has caught up. */
  replica?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    queries: {
      db: SqlDatabase;
      /** The log, read only: read-your-writes, and counts "as of" a past moment. */
      store: EventStore;
      passSecret: string;
      scanMargins: ScanMargins;
    };
  }
}

/** The query API: serves read models; never decides and never writes. */
export async function queryApi(app: FastifyInstance, options: QueryApiOptions): Promise<void> {
  // Personal columns of the read models are sealed; this service's connections hold the key.
  await unlockReadModels(options.db);
  app.decorate('queries', {
    db: options.db,
    store: options.store,
    passSecret: options.passSecret,
    scanMargins: options.scanMargins ?? NO_MARGINS,
  });
  installReadYourWrites(app, options.db, options.store, { replica: options.replica });
  // Every route needs a session unless it is mounted in the public scope (platform/src/http/access.ts).
  await mountRoutes(app, {
    // The registration forms' address pickers.
    publicRoutes: async (scope) => {
      await scope.register(addressRoutes, { warm: options.warmAddresses });
      // Calendar apps fetch a feed by its secret address, signed in to nothing.
      await scope.register(calendarFeedRoutes);
      await scope.register(certificateVerificationRoutes);
    },
    signedInRoutes: async (scope) => {
      await scope.register(registrationRoutes);
      await scope.register(profileRoutes);
      await scope.register(courseQueryRoutes);
      await scope.register(catalogueRoutes);
      await scope.register(roundQueryRoutes);
      await scope.register(assistantQueryRoutes);
      await scope.register(liveRoutes);
      await scope.register(auditRoutes);
      await scope.register(reportRoutes);
      await scope.register(outreachRoutes);
      await scope.register(notificationRoutes);
      await scope.register(calendarLinkRoutes);
      await scope.register(certificateRoutes);
      await scope.register(projectorRoutes);
      await scope.register(uploadRoutes, { root: options.uploadsDir });
    },
  });
}
