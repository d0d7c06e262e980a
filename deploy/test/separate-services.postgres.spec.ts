import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMember } from '@portal/platform/testing/accounts';
import { postgresDatabase, postgresSkipReason } from '@portal/platform/testing/databases';
import { startService } from '../src/testing/portal-process.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the services-run-alone test needs it)\n`);

/**
 * Production shape: command-api, projector and query-api as three processes on one PostgreSQL
 * database, each from its own server.ts. A session from command-api is honoured by query-api.
 */
describe.skipIf(skipped)('each service run alone against DATABASE_URL', () => {
  const admin = { username: 'admin01', password: 'services-admin-password' };
  let services: Awaited<ReturnType<typeof startService>>[] = [];
  let drop: () => Promise<void>;
  let commands: string;
  let queries: string;
  let projector: string;

  beforeAll(async () => {
    const database = await postgresDatabase.open();
    drop = database.drop;
    const env = {
      DATABASE_URL: database.url!,
      SESSION_SECRET: 'a-shared-session-secret-of-32-characters',
      DATA_KEY: Buffer.alloc(32, 42).toString('base64'),
      ADMIN_USERNAME: admin.username,
      ADMIN_PASSWORD: admin.password,
      // The projector reads the log itself here (CI's KAFKA_BROKERS is for the Kafka tests).
      KAFKA_BROKERS: '',
    };
    const started = await Promise.allSettled([
      startService('command-api', env),
      startService('projector', env),
      startService('query-api', env),
    ]);
    services = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    // One that failed must not leave the others running after the test.
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      await Promise.all(services.map((service) => service.stop()));
      throw failed.reason;
    }
    [commands, projector, queries] = services.map((service) => service.url) as [string, string, string];
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await drop?.();
  });

  const post = (url: string, body: unknown, token?: string, method = 'POST') =>
    fetch(url, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it('registers and approves on command-api, and query-api shows it once the projector has it', async () => {
    const person = sampleMember();
    const registered = await post(`${commands}/api/members/register`, person);
    expect(registered.status).toBe(201);
    const { _id: id } = (await registered.json()) as { _id: string };
    const token = ((await (await post(`${commands}/api/login`, admin)).json()) as { partner: { token: string } })
      .partner.token;
    const approved = await post(
      `${commands}/api/admin/registration/${id}/status`,
      { status: 'approved' },
      token,
      'PUT',
    );
    const { position } = (await approved.json()) as { position: number };

    const report = await fetch(`${queries}/api/admin/registration?minPosition=${position}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(report.status).toBe(200);
    expect(report.headers.get('x-read-position-reached')).toBe('true');
    const { members } = (await report.json()) as { members: { _id: string; isActive: boolean }[] };
    expect(members.find((m) => m._id === id)).toMatchObject({ isActive: true });

    // The query side has no command routes, the command side no query routes.
    expect((await post(`${queries}/api/members/register`, sampleMember())).status).toBe(404);
    expect((await fetch(`${commands}/api/admin/registration`)).status).toBe(404);
  });

  it('reports health with projection lag on every service', async () => {
    for (const url of [commands, projector, queries]) {
      const health = await fetch(`${url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', readModels: { lagEvents: 0 } });
    }
  });

  it('refuses to start any service without DATA_KEY', async () => {
    const env = { DATABASE_URL: 'postgres://unused', SESSION_SECRET: 'a-shared-session-secret-of-32-characters' };
    await expect(startService('command-api', { ...env, DATA_KEY: '' })).rejects.toThrow(/DATA_KEY must be set/);
    await expect(startService('projector', { ...env, DATA_KEY: '' })).rejects.toThrow(/DATA_KEY must be set/);
    await expect(startService('query-api', { ...env, DATA_KEY: '' })).rejects.toThrow(/DATA_KEY must be set/);
  });

  it('refuses to start a service without SESSION_SECRET', async () => {
    await expect(startService('query-api', { DATABASE_URL: 'postgres://unused', SESSION_SECRET: '' })).rejects.toThrow(
      /SESSION_SECRET must be set/,
    );
  });
});
