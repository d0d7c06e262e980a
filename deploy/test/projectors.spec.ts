import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/events/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/** The admins' lag screen's call with the projector in the process, reading the log directly. */
describe.each(testDatabases())('how far the projector is behind, on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember } = portalCalls(() => portal);

  it('shows admins the one projector, caught up, and nobody else', async () => {
    const member = await approvedMember('Lag Watcher');
    const answer = await call('GET', '/api/admin/projectors', portal.adminToken);
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ success: true, mode: 'direct', readModels: { lagEvents: 0 } });
    expect(body.readModels.position).toBeGreaterThan(0);
    expect(body.projectors).toEqual([
      expect.objectContaining({ name: 'in-process', partitions: [], lagEvents: 0, lagSeconds: 0 }),
    ]);
    for (const token of [member.token, partner()]) {
      expect((await call('GET', '/api/admin/projectors', token)).statusCode).toBe(403);
    }
    expect((await portal.app.inject({ method: 'GET', url: '/api/admin/projectors' })).statusCode).toBe(401);
  });
});
