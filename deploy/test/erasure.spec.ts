import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { projections } from '@portal/projector/projections/index';
import { rebuildReadModels } from '@portal/projector/rebuild';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * Every row of every table in the log's, the command side's and the read models' schemas, as
 * text, and of the read models' views, opened with their key (what the query side can show).
 */
async function everythingStored(db: SqlDatabase): Promise<string> {
  const tables = await db.query<{ schema: string; name: string }>(
    `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('es', 'cmd', 'rm', 'privacy') AND table_type IN ('BASE TABLE', 'VIEW')`,
  );
  expect(tables.map((table) => `${table.schema}.${table.name}`)).toEqual(
    expect.arrayContaining(['es.events', 'rm.accounts', 'cmd.unique_values', 'privacy.subject_keys']),
  );
  const dumps = await Promise.all(
    tables.map(async ({ schema, name }) => {
      const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM ${schema}.${name} t`);
      return rows.map((row) => row.row).join('\n');
    }),
  );
  return dumps.join('\n');
}

/**
 * Erasure under the PDPA, checked against the raw database: after it, the person's name,
 * national id, phone and e-mail are nowhere in the log or any read model, also after a rebuild,
 * while other people's data and the account itself (for counts) remain.
 */
describe.each(testDatabases())('personal data erasure on $name', (database) => {
  let portal: TestPortal;
  let app: FastifyInstance;
  let db: SqlDatabase;
  let uploadsDir: string;
  let adminToken: string;

  beforeAll(async () => {
    portal = await openTestPortal(database);
    ({ app, db, uploadsDir, adminToken } = portal);
  });
  afterAll(() => portal.close());

  const login = (username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { authorization: `Bearer ${adminToken}` } });
  const register = async (url: string, person: object) => {
    const answer = await app.inject({ method: 'POST', url, payload: person });
    expect(answer.statusCode).toBe(201);
    return answer.json() as { _id: string; position: number };
  };
  const secretsOf = (person: Record<string, unknown>) =>
    ['username', 'fullName', 'personalId', 'personalPhone', 'personalEmail', 'companyTaxId', 'companyEmail']
      .map((field) => person[field])
      .filter((value): value is string => typeof value === 'string')
      .flatMap((value) => [value, value.toLowerCase()]);

  it("leaves nothing of an erased member or partner readable, and everyone else's data intact", async () => {
    const erasedMember = sampleMember();
    const erasedPartner = samplePartner();
    const kept = sampleMember();
    const memberId = (await register('/api/members/register', erasedMember))._id;
    const partnerId = (await register('/api/partners/register', erasedPartner))._id;
    const keptId = (await register('/api/members/register', kept))._id;
    expect((await call('PUT', `/api/admin/registration/${memberId}/status`, { status: 'approved' })).statusCode).toBe(
      200,
    );

    // The member uploads a photo and keeps it on their profile.
    const memberToken = (await login(erasedMember.username, erasedMember.password)).json().partner.token;
    const form = new FormData();
    const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    form.append('profileImage', new Blob([photo], { type: 'image/png' }), 'me.png');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/members/uploadprofile/${memberId}`,
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')!, authorization: `Bearer ${memberToken}` },
    });
    const { imageUrl } = uploaded.json();
    const photoFile = join(uploadsDir, imageUrl.slice('/uploads/'.length));
    expect(existsSync(photoFile)).toBe(true);
    const served = await app.inject({
      method: 'GET',
      url: imageUrl,
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(served.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: imageUrl })).statusCode).toBe(401);

    // They write to the provider through the contact form, signed in.
    const note = 'Please call me back about my knee injury before class';
    const contact = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { name: erasedMember.fullName, email: erasedMember.personalEmail, subject: 'Injury', message: note },
      headers: { authorization: `Bearer ${memberToken}` },
    });
    expect(contact.statusCode).toBe(201);

    const stored = await everythingStored(db);
    // Before erasure the read models hold the data (the log never does in the clear).
    expect(stored).toContain(erasedMember.fullName);

    for (const id of [memberId, partnerId]) {
      const erased = await call('DELETE', `/api/admin/members/${id}/personal-data`);
      expect(erased.statusCode).toBe(200);
      expect(erased.json()).toMatchObject({ success: true, position: expect.any(Number) });
    }
    expect((await call('DELETE', `/api/admin/members/${partnerId}/personal-data`)).statusCode).toBe(404);

    const report = await call('GET', `/api/admin/registration?minPosition=${await lastPosition(db)}`);
    const listed = report.json().members.map((m: { _id: string }) => m._id);
    expect(listed).toContain(keptId);
    expect(listed).not.toContain(memberId);
    expect(listed).not.toContain(partnerId);
    expect((await call('GET', `/api/members/profile/${memberId}`)).statusCode).toBe(404);
    expect((await login(erasedMember.username, erasedMember.password)).statusCode).toBe(401);
    expect(existsSync(photoFile)).toBe(false);
    expect((await call('GET', imageUrl)).statusCode).toBe(404);

    const check = async () => {
      const after = await everythingStored(db);
      for (const secret of [...secretsOf(erasedMember), ...secretsOf(erasedPartner), note]) {
        expect(after, `"${secret}" is still stored`).not.toContain(secret);
      }
      expect(after).toContain(kept.fullName);
      const [row] = await db.query<{ status: string }>(`SELECT status FROM rm.accounts WHERE id = $1`, [memberId]);
      expect(row?.status).toBe('erased');
    };
    await check();
    // A rebuild replays the log: the sealed data stays unreadable.
    await portal.restart(async () => {
      await rebuildReadModels({ db, store: portal.store, projections });
      await check();
    });
    app = portal.app;
  });
});

async function lastPosition(db: SqlDatabase): Promise<number> {
  const [row] = await db.query<{ position: string }>(`SELECT max(position)::text AS position FROM es.events`);
  return Number(row!.position);
}
