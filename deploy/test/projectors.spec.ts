import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { outreachProjection } from '@portal/projector/projections/outreach/projection';
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

  it('sets aside a read model that cannot apply an event, says so on health and to admins, and resumes it', async () => {
    // A fault outside any input: the contact messages' table is gone (a hand-made mistake).
    await portal.db.query('DROP TABLE rm.contact_messages_sealed CASCADE');
    const contact = await call('POST', '/api/contact', '', {
      name: 'Stuck Visitor',
      email: 'stuck@example.com',
      message: 'this one cannot be shown yet',
    });
    expect(contact.statusCode).toBe(201);
    const failingNow = async () => (await portal.app.inject({ method: 'GET', url: '/api/health' })).json();
    await expect.poll(async () => (await failingNow()).failing, { timeout: 10_000 }).toHaveLength(1);
    const health = await failingNow();
    expect(health.status).toBe('degraded');
    expect(health.failing[0]).toMatchObject({ projection: 'outreach', position: contact.json().position });
    expect(health.failing[0].error).toMatch(/contact_messages/);
    expect(health.projector.running).toBe(true);

    // Everything else keeps up: a registration after it is on the registration report.
    const later = await approvedMember('After The Fault');
    const members = (await call('GET', '/api/admin/registration', portal.adminToken)).json().members;
    expect(members.map((m: { _id: string }) => m._id)).toContain(later.id);
    const screen = (await call('GET', '/api/admin/projectors', portal.adminToken)).json();
    expect(screen.failing).toEqual([
      expect.objectContaining({ projection: 'outreach', position: contact.json().position }),
    ]);

    // Fixed: it catches up by itself, with the message once.
    await outreachProjection.createTables(portal.db, 'rm');
    await expect.poll(async () => (await failingNow()).failing, { timeout: 15_000 }).toEqual([]);
    expect((await failingNow()).status).toBe('ok');
    const inbox = (await call('GET', '/api/admin/contact-messages', portal.adminToken)).json().contactMessages;
    expect(inbox.filter((m: { name: string }) => m.name === 'Stuck Visitor')).toHaveLength(1);
  });
});
