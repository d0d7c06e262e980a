import { type TestDatabase, testUploadsDir } from '@portal/platform/testing/databases';
import type { MailConfig } from '@portal/command-api/outreach/mailer';
import { type PortalOptions, startPortal } from '../portal.ts';

export const TEST_ADMIN = { username: 'admin01', password: 'admin-password-1' };

/**
 * The whole portal in this process (as `npm start` runs it, without the console) on a fresh test
 * database and upload folder, with the first admin signed in; e-mail goes to `options.mail`.
 */
export async function openTestPortal(
  database: TestDatabase,
  options: {
    mail?: MailConfig;
    kafka?: { brokers: string[]; topic: string };
    sessions?: PortalOptions['sessions'];
    /** As behind a TLS proxy (COOKIE_SECURE=true). */
    secureCookie?: boolean;
    /** The pass secret and scanning margins; by default from the environment. */
    attendance?: PortalOptions['attendance'];
    /** Issue certificates on their own (off unless asked). */
    certificateSweep?: PortalOptions['certificateSweep'];
    /** How often the embedded database's statistics are kept (by default a minute). */
    statisticsEveryMs?: number;
  } = {},
) {
  const { db, url, drop } = await database.open();
  const uploadsDir = testUploadsDir();
  const start = () =>
    startPortal({
      db,
      sessionSecret: 'test-portal-secret-of-enough-length',
      admin: TEST_ADMIN,
      uploadsDir,
      // No SMTP server unless the test brings one: e-mails stay in the outbox.
      mail: options.mail ?? { from: 'Course Portal <no-reply@course-portal.invalid>' },
      // No relay unless the test asks for one (CI sets KAFKA_BROKERS for the Kafka tests).
      kafka: options.kafka ?? null,
      sessions: options.sessions,
      secureCookie: options.secureCookie,
      attendance: options.attendance,
      certificateSweep: options.certificateSweep,
      statisticsEveryMs: options.statisticsEveryMs,
    });
  let portal = await start();
  const signIn = await portal.app.inject({ method: 'POST', url: '/api/login', payload: TEST_ADMIN });
  const adminToken: string = signIn.json().partner.token;
  return {
    db,
    /** The PostgreSQL database's URL (none on PGlite). */
    url,
    uploadsDir,
    adminToken,
    get app() {
      return portal.app;
    },
    get store() {
      return portal.store;
    },
    /** Stops the portal, runs `meanwhile` (a rebuild, say) and starts it again on the same data. */
    async restart(meanwhile: () => Promise<void> = async () => {}) {
      await portal.close();
      await meanwhile();
      portal = await start();
    },
    async close() {
      await portal.close();
      await drop();
    },
  };
}
export type TestPortal = Awaited<ReturnType<typeof openTestPortal>>;
