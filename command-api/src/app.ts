import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { EventStore } from '@portal/platform/store/port';
import { mountRoutes } from '@portal/platform/http/access';
import { createRevocationTable } from '@portal/platform/http/revocations';
import { withSchemaLock } from '@portal/platform/store/schema-lock';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { createAccountTables } from './accounts/credentials.ts';
import { SignInThrottle, type ThrottleLimits, createSignInAttemptsTable } from './accounts/sign-in-throttle.ts';
import { loginRoutes } from './accounts/login.routes.ts';
import { registerRoutes } from './accounts/register.routes.ts';
import { profileRoutes } from './accounts/profile.routes.ts';
import { registrationAdminRoutes } from './accounts/registration-admin.routes.ts';
import { courseRoutes } from './courses/courses.routes.ts';
import { assistantRoutes } from './courses/assistants.routes.ts';
import { createRoundIndex } from './courses/round-index.ts';
import { attendanceRoutes } from './attendance/scan.routes.ts';
import type { AttendanceConfig } from '@portal/platform/attendance/config';
import { type MailConfig, createMailer, mailConfigFromEnv } from './outreach/mailer.ts';
import { contactRoutes } from './outreach/contact.routes.ts';
import { emailRoutes } from './outreach/emails.routes.ts';
import { notificationRoutes } from './notifications/notifications.routes.ts';
import { calendarRoutes } from './calendar/calendar.routes.ts';
import { passwordLinkAdminRoutes, passwordSetRoutes } from './accounts/password-link.routes.ts';
import { certificateRoutes } from './certificates/certificates.routes.ts';
import { importRoutes } from './accounts/import/import.routes.ts';
import { type SweepOptions, startCertificateSweep } from './certificates/sweep.ts';

export interface CommandApiOptions {
  db: SqlDatabase;
  store: EventStore;
  /** Failed sign-in limits (also for the current password on a password change); tests pass their own, and a clock. */
  signIn?: { limits?: Partial<ThrottleLimits>; now?: () => number };
  /** Where uploaded files (profile photos) are kept; served under /uploads. */
  uploadsDir: string;
  /** The pass secret and scanning margins. */
  attendance: AttendanceConfig;
  /** Where e-mail goes; by default from SMTP_URL and MAIL_FROM (README, Configuration). */
  mail?: MailConfig;
  /**
   * Issue certificates on their own once courses end (issue 23): how often to look, and the
   * portal's address for the e-mailed certificates' links. Omitted: only when someone asks.
   */
  certificateSweep?: Omit<SweepOptions, 'log'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    commands: CommandApiOptions & { signInThrottle: SignInThrottle };
  }
}

/** Prepares the command side's own tables (idempotent). */
export async function prepareCommandTables(db: SqlDatabase): Promise<void> {
  await withSchemaLock(db, async (tx) => {
    await createAccountTables(tx);
    await createRevocationTable(tx);
    await createSignInAttemptsTable(tx);
    await createRoundIndex(tx);
  });
}

/**
 * The command API: validates commands, decides, appends events. The only writer of the log.
 * Every route needs a session unless it is mounted in the public scope (sign-in, registration,
 * the contact form); see platform/src/http/access.ts.
 */
export async function commandApi(app: FastifyInstance, options: CommandApiOptions): Promise<void> {
  const signInThrottle = new SignInThrottle(options.db, options.signIn?.limits, options.signIn?.now);
  app.decorate('commands', { ...options, signInThrottle });
  // Uploads are one image; each route sets its own size limit when it reads the file.
  await app.register(multipart, { limits: { files: 1, fields: 5, parts: 6 } });
  const mailer = createMailer(options.mail ?? mailConfigFromEnv());
  app.addHook('onClose', async () => mailer.close());
  const { certificateSweep } = options;
  if (certificateSweep) {
    const deps = { db: options.db, store: options.store, mailer };
    let stop: (() => Promise<void>) | null = null;
    app.addHook('onReady', async () => {
      stop = startCertificateSweep(deps, { ...certificateSweep, log: app.log });
    });
    app.addHook('preClose', async () => stop?.());
  }
  await mountRoutes(app, {
    publicRoutes: async (scope) => {
      await scope.register(loginRoutes);
      await scope.register(registerRoutes);
      await scope.register(contactRoutes);
      await scope.register(passwordSetRoutes);
    },
    signedInRoutes: async (scope) => {
      await scope.register(registrationAdminRoutes);
      await scope.register(profileRoutes);
      await scope.register(courseRoutes);
      await scope.register(assistantRoutes);
      await scope.register(attendanceRoutes);
      await scope.register(emailRoutes, { mailer });
      await scope.register(notificationRoutes);
      await scope.register(calendarRoutes);
      await scope.register(passwordLinkAdminRoutes, { mailer });
      await scope.register(certificateRoutes, { mailer });
      await scope.register(importRoutes, { mailer });
    },
  });
}
