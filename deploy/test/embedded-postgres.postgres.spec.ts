import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sampleMember } from '@portal/platform/testing/accounts';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { PROJECTOR_THREAD_APPLICATION } from '@portal/projector/thread/messages';
import { startPortalProcess } from '../src/testing/portal-process.ts';

const skipped = postgresSkipReason();
if (skipped) console.warn(`\n!!! ${skipped} (the npm start on PostgreSQL test needs it)\n`);

/**
 * `npm start` with DATABASE_URL: the projector runs in a thread of its own, with its own
 * connections and the process's data keys (projector/src/thread). What a person registers reaches
 * the read models, opened; health reports the thread's projector
 * (projector/test/projector-thread.postgres.spec.ts: the thread itself).
 */
describe.skipIf(skipped)('npm start on PostgreSQL', () => {
  it('projects in its own thread: registrations reach the reports opened, health shows it running', async () => {
    const admin = { username: 'admin01', password: 'thread-admin-password' };
    const portal = await startPortalProcess({
      database: 'postgres',
      env: { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password },
    });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${portal.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const person = sampleMember({ fullName: 'Threadbare Quillon' });
      const registered = await post('/api/members/register', person);
      expect(registered.status).toBe(201);
      const { _id: id, position } = (await registered.json()) as { _id: string; position: number };
      const { token } = ((await (await post('/api/login', admin)).json()) as { partner: { token: string } }).partner;

      const report = await fetch(`${portal.url}/api/admin/registration?minPosition=${position}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(report.headers.get('x-read-position-reached')).toBe('true');
      const { members } = (await report.json()) as { members: { _id: string; fullName: string }[] };
      // Sealed in the event with the person's key, opened by the thread with the data keys it was given.
      expect(members.find((member) => member._id === id)).toMatchObject({ fullName: 'Threadbare Quillon' });

      // The projector's connections are the thread's own, named so, not the requests' pool.
      const client = new pg.Client({ connectionString: portal.databaseUrl! });
      await client.connect();
      const { rows } = await client
        .query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
          [PROJECTOR_THREAD_APPLICATION],
        )
        .finally(() => client.end());
      expect(rows[0]!.n).toBeGreaterThan(0);

      const health = await fetch(`${portal.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'ok',
        projector: { running: true, lastError: null },
        readModels: { lagEvents: 0 },
      });
    } finally {
      await portal.stop();
    }
  }, 120_000);
});
