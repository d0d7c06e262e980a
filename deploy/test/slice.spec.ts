// Over 250 lines: the thin slice is one story told over HTTP (register, approve, sign in,
// report), on both databases.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { exportedDigits, exportedMoment, openCsv } from '../src/testing/csv.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * The thin slice through every service in one process, over HTTP as the console calls it:
 * a member registers, an admin approves, the member signs in, the registration report shows them.
 */
describe.each(testDatabases())('the portal on $name', (database) => {
  let portal: TestPortal;
  let app: FastifyInstance;
  let adminToken: string;

  beforeAll(async () => {
    portal = await openTestPortal(database);
    ({ app, adminToken } = portal);
  });
  afterAll(() => portal.close());

  const login = (username: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/login', payload: { username, password } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const report = (token: string, minPosition?: number) =>
    app.inject({
      method: 'GET',
      url: `/api/admin/registration${minPosition ? `?minPosition=${minPosition}` : ''}`,
      headers: bearer(token),
    });

  it('walks register, report (pending), approve, sign-in, report (active)', async () => {
    const person = sampleMember();
    const registered = await app.inject({ method: 'POST', url: '/api/members/register', payload: person });
    expect(registered.statusCode).toBe(201);
    const { _id: id, position } = registered.json();

    const pending = await report(adminToken, position);
    expect(pending.headers['x-read-position-reached']).toBe('true');
    const listed = pending.json().members.find((m: { _id: string }) => m._id === id);
    expect(listed).toMatchObject({
      _id: id,
      username: person.username,
      fullName: person.fullName,
      personalEmail: person.personalEmail.toLowerCase(),
      personalId: person.personalId,
      role: 'member',
      status: 'pending',
      isActive: false,
    });
    expect(listed).not.toHaveProperty('password');

    const refused = await login(person.username, person.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().status).toBe('รอยืนยัน');

    const approved = await app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${id}/status`,
      headers: bearer(adminToken),
      payload: { status: 'approved' },
    });
    expect(approved.statusCode).toBe(200);
    const active = await report(adminToken, approved.json().position);
    expect(active.json().members.find((m: { _id: string }) => m._id === id)).toMatchObject({
      status: 'approved',
      isActive: true,
    });

    const signedIn = await login(person.username, person.password);
    expect(signedIn.statusCode).toBe(200);
    const token = signedIn.json().partner.token;
    const profile = await app.inject({ method: 'GET', url: `/api/members/profile/${id}`, headers: bearer(token) });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ success: true, member: { _id: id, username: person.username } });
  });

  it("ends a member's sessions at once when they are rejected, on both APIs", async () => {
    const person = sampleMember();
    const { _id: id } = (await app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
    const setStatus = (status: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/admin/registration/${id}/status`,
        headers: bearer(adminToken),
        payload: { status },
      });
    await setStatus('approved');
    const token = (await login(person.username, person.password)).json().partner.token;
    const profile = () =>
      app
        .inject({ method: 'GET', url: `/api/members/profile/${id}`, headers: bearer(token) })
        .then((r) => r.statusCode);
    const save = () =>
      app
        .inject({
          method: 'PUT',
          url: `/api/members/profile/${id}`,
          headers: bearer(token),
          payload: { fullName: 'x', personalPhone: person.personalPhone, personalEmail: person.personalEmail },
        })
        .then((r) => r.statusCode);
    expect(await profile()).toBe(200);
    expect(await save()).toBe(200);
    await setStatus('rejected');
    expect(await profile()).toBe(401);
    expect(await save()).toBe(401);
    // Approved again, they sign in anew; the old token stays dead.
    await setStatus('approved');
    const fresh = (await login(person.username, person.password)).json().partner.token;
    expect(
      (await app.inject({ method: 'GET', url: `/api/members/profile/${id}`, headers: bearer(fresh) })).statusCode,
    ).toBe(200);
    expect(await profile()).toBe(401);
  });

  it('lists partners in the report with their role and company', async () => {
    const partner = samplePartner();
    const answer = await app.inject({ method: 'POST', url: '/api/partners/register', payload: partner });
    expect(answer.statusCode).toBe(201);
    const { _id, position } = answer.json();
    const listed = (await report(adminToken, position)).json().members.find((m: { _id: string }) => m._id === _id);
    expect(listed).toMatchObject({
      role: 'partner',
      status: 'pending',
      fullName: partner.fullName,
      companyName: partner.companyName,
      company: { companyTaxId: partner.companyTaxId, companyEmail: partner.companyEmail, shopLatitude: 13.7307 },
    });
    const byCompany = await app.inject({
      method: 'GET',
      url: `/api/admin/registration?search=${encodeURIComponent(partner.companyName.toUpperCase())}&page=1`,
      headers: bearer(adminToken),
    });
    expect(byCompany.json().members.map((m: { _id: string }) => m._id)).toEqual([_id]);
  });

  it('filters, sorts and pages the registration report in the query API, and exports the filtered rows as CSV', async () => {
    const tag = `zx${Date.now().toString(36)}`;
    const people = ['Charlie', 'alpha', 'Bravo'].map((name) => sampleMember({ fullName: `${name} ${tag}` }));
    const ids: string[] = [];
    let position = 0;
    for (const person of people) {
      const answer = (await app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
      ids.push(answer._id);
      position = answer.position;
    }
    const approved = await app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${ids[0]}/status`,
      headers: bearer(adminToken),
      payload: { status: 'approved' },
    });
    position = approved.json().position;
    const page = async (query: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/api/admin/registration?minPosition=${position}&${query}`,
          headers: bearer(adminToken),
        })
      ).json();

    const byName = await page(`search=${tag}&sort=name&order=asc&page=1&pageSize=2`);
    expect(byName).toMatchObject({ total: 3, page: 1, pageSize: 2, pages: 2 });
    expect(byName.members.map((m: { fullName: string }) => m.fullName)).toEqual([`alpha ${tag}`, `Bravo ${tag}`]);
    const second = await page(`search=${tag}&sort=name&order=asc&page=2&pageSize=2`);
    expect(second.members.map((m: { fullName: string }) => m.fullName)).toEqual([`Charlie ${tag}`]);
    const pending = await page(`search=${tag.toUpperCase()}&status=pending&page=1`);
    expect(pending.total).toBe(2);
    const byPhone = await page(`search=${people[2]!.personalPhone}&page=1`);
    expect(byPhone.members.map((m: { _id: string }) => m._id)).toEqual([ids[2]]);
    const newest = await page(`search=${tag}&page=1`);
    expect(newest.members[0]._id).toBe(ids[2]); // registration date, newest first by default
    // A search is text, never a pattern.
    expect((await page(`search=${encodeURIComponent('%')}${tag}&page=1`)).total).toBe(0);

    const csv = await app.inject({
      method: 'GET',
      url: `/api/admin/registration/export.csv?search=${tag}&status=approved`,
      headers: bearer(adminToken),
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="registrations_report.csv"');
    // Opened as a spreadsheet would, column by column.
    const sheet = openCsv(csv.body);
    expect(sheet.header).toEqual([
      'ID',
      'Name',
      'Email',
      'Phone',
      'Address',
      'Registration Date',
      'Status',
      'Personal ID',
      'Title',
      'Gender',
      'Date of Birth',
      'Occupation',
    ]);
    const charlie = people[0]!;
    const listed = (await page(`search=${tag}&status=approved&page=1`)).members[0];
    expect(sheet.rows).toEqual([
      [
        ids[0],
        `Charlie ${tag}`,
        charlie.personalEmail.toLowerCase(),
        exportedDigits(charlie.personalPhone),
        '1 Sukhumvit Road คลองเตยเหนือ วัฒนา กรุงเทพมหานคร 10110',
        exportedMoment(listed.createdAt),
        'APPROVED',
        exportedDigits(charlie.personalId),
        'นาย',
        '',
        '',
        '',
      ],
    ]);
    expect(sheet.rows[0]![5]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const refused = await app.inject({ method: 'GET', url: '/api/admin/registration/export.csv' });
    expect(refused.statusCode).toBe(401);
  });

  it('lists newest registrations first and leaves admins out of the report', async () => {
    const first = (await app.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() })).json();
    const second = (await app.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() })).json();
    const members: { _id: string; role: string }[] = (await report(adminToken, second.position)).json().members;
    const ids = members.map((m) => m._id);
    expect(ids.indexOf(second._id)).toBeLessThan(ids.indexOf(first._id));
    expect(members.every((m) => m.role !== 'admin')).toBe(true);
  });

  it('keeps the report for admins and each profile for its owner and admins', async () => {
    const a = sampleMember();
    const b = sampleMember();
    const aId = (await app.inject({ method: 'POST', url: '/api/members/register', payload: a })).json()._id;
    const bAnswer = (await app.inject({ method: 'POST', url: '/api/members/register', payload: b })).json();
    for (const id of [aId, bAnswer._id]) {
      await app.inject({
        method: 'PUT',
        url: `/api/admin/registration/${id}/status`,
        headers: bearer(adminToken),
        payload: { status: 'approved' },
      });
    }
    const memberToken = (await login(a.username, a.password)).json().partner.token;

    expect((await app.inject({ method: 'GET', url: '/api/admin/registration' })).statusCode).toBe(401);
    expect((await report(memberToken)).statusCode).toBe(403);
    const others = await app.inject({
      method: 'GET',
      url: `/api/members/profile/${bAnswer._id}`,
      headers: bearer(memberToken),
    });
    expect(others.statusCode).toBe(403);
    const byAdmin = await app.inject({
      method: 'GET',
      url: `/api/members/profile/${bAnswer._id}?minPosition=${bAnswer.position}`,
      headers: bearer(adminToken),
    });
    expect(byAdmin.json().member.username).toBe(b.username);
    const unknown = await app.inject({
      method: 'GET',
      url: '/api/members/profile/no-such-member',
      headers: { ...bearer(adminToken), 'accept-language': 'en' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, member: null });
    expect(unknown.json().message).toMatch(/not found/i);
  });

  it('reports health with no projection lag once caught up', async () => {
    const registered = (
      await app.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() })
    ).json();
    await report(adminToken, registered.position);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      readModels: { lagEvents: 0, lagSeconds: 0, checkpoint: { position: registered.position } },
      projector: { running: true },
    });
  });

  it('serves the OpenAPI page', async () => {
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/members/register', '/api/admin/registration', '/api/health']),
    );
  });
});
