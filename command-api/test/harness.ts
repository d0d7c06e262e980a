import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { attendanceConfig } from '@portal/platform/attendance/config';
import { sampleMember } from '@portal/platform/testing/accounts';
import { createHttpServer } from '@portal/platform/http/server-kit';
import type { TrustProxy } from '@portal/platform/http/service-config';
import { createEventStore } from '@portal/platform/store/event-store';
import type { EventStore } from '@portal/platform/store/port';
import { createEventStoreSchema } from '@portal/platform/store/schema';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type TestDatabase, testUploadsDir } from '@portal/platform/testing/databases';
import { ensureFirstAdmin } from '../src/accounts/first-admin.ts';
import { type CommandApiOptions, commandApi, prepareCommandTables } from '../src/app.ts';

export const ADMIN = { username: 'admin01', password: 'admin-password-1' };

/** Scanning as the tests expect it: margins of 0, late after 15 minutes, a known pass secret. */
export const TEST_ATTENDANCE = attendanceConfig('test-secret-of-enough-length', {});

export interface HarnessOptions {
  trustProxy?: TrustProxy;
  /** Sign-in limits and a clock of the test's own. */
  signIn?: CommandApiOptions['signIn'];
}

export async function startCommandApi(
  database: TestDatabase,
  attendance = TEST_ATTENDANCE,
  options: HarnessOptions = {},
) {
  const { db, url, drop } = await database.open();
  await createEventStoreSchema(db);
  await prepareCommandTables(db);
  const store = createEventStore(db);
  await ensureFirstAdmin(db, store, ADMIN);
  const { app, uploadsDir } = await serveCommandApi(db, attendance, options);
  return {
    app,
    db,
    url,
    store,
    uploadsDir,
    async close() {
      await app.close();
      await drop();
    },
  };
}

export type StartedCommandApi = Awaited<ReturnType<typeof startCommandApi>>;

/**
 * A command API on `database` for one describe block, started before the block's own setup with
 * the first admin signed in, and closed after its tests; `started` hands both to the block.
 */
export function withCommandApi(database: TestDatabase, started: (h: StartedCommandApi, adminToken: string) => void) {
  let h: StartedCommandApi | undefined;
  beforeAll(async () => {
    h = await startCommandApi(database);
    started(h, (await loginAs(h.app, ADMIN.username, ADMIN.password)).token!);
  });
  afterAll(() => h?.close());
}

/** A command API over a database already prepared: a second one stands for another process. */
export async function serveCommandApi(db: SqlDatabase, attendance = TEST_ATTENDANCE, options: HarnessOptions = {}) {
  const app = await createHttpServer({
    title: 'test',
    sessionSecret: 'test-secret-of-enough-length',
    revocations: db,
    trustProxy: options.trustProxy,
  });
  const store = createEventStore(db);
  const uploadsDir = testUploadsDir();
  await app.register(commandApi, { db, store, uploadsDir, attendance, signIn: options.signIn });
  await app.ready();
  return { app, uploadsDir };
}

export type Harness = { app: FastifyInstance; db: SqlDatabase; store: EventStore };

export { sampleMember as member };

/** The profile form as a member saves it: `person`'s details, with `changes`. */
export const profileOf = (person: ReturnType<typeof sampleMember>, changes: Record<string, unknown> = {}) => ({
  title: 'นาง',
  fullName: person.fullName,
  personalPhone: person.personalPhone,
  personalEmail: person.personalEmail,
  personalAddress: person.personalAddress,
  personalProvince: person.personalProvince,
  personalDistrict: person.personalDistrict,
  personalSubdistrict: person.personalSubdistrict,
  personalPostalCode: person.personalPostalCode,
  profile_img: null,
  ...changes,
});

/** A call as the console makes it: a Bearer token, in English, with any extra headers. */
export const callerOf =
  (app: FastifyInstance) =>
  (method: 'POST' | 'PUT', url: string, token: string, payload?: object, headers: object = {}) =>
    app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...headers },
    });

export async function loginAs(app: FastifyInstance, username: string, password: string) {
  const response = await app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  return { response, token: response.json()?.partner?.token as string | undefined };
}

export async function eventCount(db: SqlDatabase): Promise<number> {
  const [row] = await db.query<{ count: string }>('SELECT count(*)::text AS count FROM es.events');
  return Number(row!.count);
}

/** A multipart body as a browser sends it, for app.inject. */
export { multipartBody as multipart } from '@portal/platform/testing/multipart';

/** A plain PNG of the given size. */
export const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
