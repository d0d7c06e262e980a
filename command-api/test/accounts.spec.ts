// Over 250 lines: the accounts commands' HTTP contract (17 short cases) on one portal.
import { describe, expect, it } from 'vitest';
import { PersonalData } from '@portal/contracts/accounts/account.events';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { open } from '@portal/platform/privacy/personal-data';
import { legalVersions } from '@portal/contracts/rules/legal';
import { testDatabases } from '@portal/platform/testing/databases';
import { ADMIN, eventCount, loginAs, member, type StartedCommandApi, withCommandApi } from './harness.ts';

describe.each(testDatabases())('accounts on $name', (database) => {
  let h: StartedCommandApi;
  let adminToken: string;
  withCommandApi(database, (started, token) => ((h = started), (adminToken = token)));

  const register = (payload: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'POST', url: '/api/members/register', payload: payload as object, headers });
  const setStatus = (id: string, status: string, token = adminToken) =>
    h.app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${id}/status`,
      payload: { status },
      headers: { authorization: `Bearer ${token}` },
    });

  describe('registration', () => {
    it('registers a member with the e-mail lowercased, pending approval, and keeps the password out of the log', async () => {
      const payload = member();
      const response = await register(payload);
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({ success: true, _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
      expect(body.position).toBeGreaterThan(0);
      const [stored, consent] = await h.store.readStream(`account-${body._id}`);
      expect(stored!.type).toBe('MemberRegistered');
      const sealed = (stored!.data as { personal: Sealed }).personal;
      expect(await open(h.db, sealed, PersonalData)).toMatchObject({
        personalEmail: payload.personalEmail.toLowerCase(),
        username: payload.username,
      });
      const [raw] = await h.db.query<{ text: string }>(
        'SELECT data::text || metadata::text AS text FROM es.events WHERE stream_id = $1',
        [`account-${body._id}`],
      );
      expect(raw!.text).not.toContain(payload.password);
      expect(raw!.text).not.toContain('argon2');
      // Personal data is sealed with the member's own key, never in the clear.
      for (const value of [payload.username, payload.fullName, payload.personalId, payload.personalPhone]) {
        expect(raw!.text).not.toContain(value);
      }
      // The consent is recorded with the versions of the texts agreed to.
      expect(consent).toMatchObject({
        type: 'ConsentGiven',
        data: {
          documents: [
            { document: 'terms', version: legalVersions.terms },
            { document: 'privacy', version: legalVersions.privacy },
          ],
        },
      });
    });

    it('refuses a registration without the terms accepted, with the spec message', async () => {
      const before = await eventCount(h.db);
      const response = await register(member({ acceptTerms: undefined }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ acceptTerms: 'กรุณายอมรับข้อตกลงและนโยบายความเป็นส่วนตัว' });
      expect(await eventCount(h.db)).toBe(before);
    });

    it("answers each invalid field with the spec's Thai message and appends nothing", async () => {
      const before = await eventCount(h.db);
      const response = await register({
        username: 'abc',
        password: 'รหัสผ่านไทย12',
        personalId: '12345',
        personalPhone: '08x1234567',
        personalEmail: 'not-an-email',
        acceptTerms: true,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({
        username: 'ชื่อผู้ใช้ต้องมีอย่างน้อย 6 ตัวอักษร',
        password: 'รหัสผ่านไม่ควรมีตัวอักษรภาษาไทย',
        personalId: 'ต้องกรอกเลขบัตรประชาชน 13 หลัก',
        personalPhone: 'กรุณากรอกเฉพาะตัวเลขเท่านั้น',
        personalEmail: 'กรุณากรอกอีเมล์ที่ถูกต้อง',
      });
      expect(await eventCount(h.db)).toBe(before);
    });

    it('refuses a national id whose check digit is wrong, and appends nothing', async () => {
      const before = await eventCount(h.db);
      const response = await register(member({ personalId: '1101700000002' }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ personalId: 'เลขบัตรประชาชนไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง' });
      expect(await eventCount(h.db)).toBe(before);
    });

    it('says which fields are required, in English when asked', async () => {
      const response = await register({}, { 'accept-language': 'en' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toMatchObject({
        username: 'Please enter a username.',
        password: 'Please enter a password.',
        personalId: 'Please enter your national ID number.',
        personalPhone: 'Please enter a phone number.',
        personalEmail: 'Please enter an e-mail address.',
      });
      const thai = await register({ username: '', password: 'short' });
      expect(thai.json().errors).toMatchObject({
        username: 'กรุณากรอกชื่อผู้ใช้',
        password: 'รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร',
        personalId: 'กรุณากรอกเลขบัตรประชาชน',
      });
    });

    it('answers malformed JSON with a 400, never a 5xx', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/api/members/register',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
    });

    it('answers duplicates with the spec fields, whatever the e-mail case', async () => {
      const first = member();
      expect((await register(first)).statusCode).toBe(201);
      const before = await eventCount(h.db);
      const again = member({
        username: first.username.toUpperCase(),
        personalEmail: first.personalEmail.toUpperCase(),
      });
      const response = await register(again);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        success: false,
        error: 'ข้อมูลซ้ำกับในระบบ',
        fields: { username: true, personalId: false, personalPhone: false, personalEmail: true },
        errors: { username: 'ชื่อผู้ใช้นี้ถูกใช้งานแล้ว', personalEmail: 'อีเมลนี้ถูกใช้งานแล้ว' },
      });
      // In English, every word of the answer is English (no Thai leaking in).
      const english = await register(again, { 'accept-language': 'en' });
      expect(english.statusCode).toBe(409);
      expect(english.json()).toMatchObject({
        message: 'This information is already in the system.',
        error: 'This information is already in the system.',
        errors: { username: 'This username is already in use.' },
      });
      expect(await eventCount(h.db)).toBe(before);
    });

    it('lets exactly one of many racing registrations of the same person through', async () => {
      const payload = member();
      const answers = await Promise.all(Array.from({ length: 6 }, () => register(payload)));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([201, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.statusCode === 409)) {
        expect(refused.json().fields).toEqual({
          username: true,
          personalId: true,
          personalPhone: true,
          personalEmail: true,
        });
      }
    });

    it('replays a repeated Idempotency-Key with the first answer and refuses it for another request (422)', async () => {
      const payload = member();
      const headers = { 'idempotency-key': `register-${payload.username}` };
      const first = await register(payload, headers);
      const before = await eventCount(h.db);
      const replay = await register(payload, headers);
      expect(replay.statusCode).toBe(201);
      expect(replay.json()._id).toBe(first.json()._id);
      expect(await eventCount(h.db)).toBe(before);
      const other = await register(member(), headers);
      expect(other.statusCode).toBe(422);
      expect(await eventCount(h.db)).toBe(before);
    });
  });

  describe('sign-in and approval', () => {
    it('refuses a pending account naming its status, and signs it in once approved', async () => {
      const payload = member();
      const { _id } = (await register(payload)).json();
      const pending = await loginAs(h.app, payload.username, payload.password);
      expect(pending.response.statusCode).toBe(403);
      expect(pending.response.json()).toMatchObject({ success: false, status: 'รอยืนยัน' });

      expect((await setStatus(_id, 'approved')).statusCode).toBe(200);
      const approved = await loginAs(h.app, payload.username, payload.password);
      expect(approved.response.statusCode).toBe(200);
      expect(approved.response.json()).toEqual({
        success: true,
        message: expect.any(String),
        partner: {
          token: expect.any(String),
          _id,
          partnerId: null,
          title: payload.title,
          fullName: payload.fullName,
          username: payload.username,
          role: 'member',
          status: 'ยืนยันแล้ว',
          personalPhone: payload.personalPhone,
          personalEmail: payload.personalEmail.toLowerCase(),
          profile_img: null,
        },
      });
      const cookie = approved.response.cookies.find((c) => c.name === 'token');
      expect(cookie).toMatchObject({ value: approved.token, httpOnly: true });

      expect((await setStatus(_id, 'rejected')).statusCode).toBe(200);
      const rejected = await loginAs(h.app, payload.username, payload.password);
      expect(rejected.response.statusCode).toBe(403);
      expect(rejected.response.json().status).toBe('ไม่ยืนยัน');
    });

    it('gives a wrong password and an unknown user the same answer', async () => {
      const wrong = await loginAs(h.app, ADMIN.username, 'not-the-password');
      const unknown = await loginAs(h.app, 'nobody-here', 'whatever-1');
      expect(wrong.response.statusCode).toBe(401);
      expect(unknown.response.statusCode).toBe(401);
      expect(wrong.response.json()).toEqual(unknown.response.json());
    });

    it('slows the address after five wrong passwords for an account, even with the right one, saying why', async () => {
      const person = member();
      const id = (await register(person)).json()._id;
      await setStatus(id, 'approved');
      for (let i = 0; i < 5; i++)
        expect((await loginAs(h.app, person.username, 'wrong-password')).response.statusCode).toBe(401);
      const { response } = await loginAs(h.app, person.username, person.password);
      expect(response.statusCode).toBe(429);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(response.json().message).toBe('เข้าสู่ระบบไม่สำเร็จหลายครั้งเกินไป กรุณารอสักครู่แล้วลองใหม่');
    });

    it('requires both sign-in fields', async () => {
      const response = await h.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'x' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.password).toBe('กรุณากรอกชื่อผู้ใช้และรหัสผ่าน');
    });

    it('refuses to approve an approved registration and to touch unknown ones', async () => {
      const { _id } = (await register(member())).json();
      expect((await setStatus(_id, 'approved')).statusCode).toBe(200);
      expect((await setStatus(_id, 'approved')).statusCode).toBe(409);
      expect((await setStatus('0123456789abcdef01234567', 'approved')).statusCode).toBe(404);
      expect((await setStatus(_id, 'maybe')).statusCode).toBe(400);
    });

    it('deletes a registration: the person cannot sign in and the username is free again', async () => {
      const payload = member();
      const { _id } = (await register(payload)).json();
      await setStatus(_id, 'approved');
      const deleted = await h.app.inject({
        method: 'DELETE',
        url: `/api/admin/registration/${_id}`,
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(deleted.statusCode).toBe(200);
      expect((await loginAs(h.app, payload.username, payload.password)).response.statusCode).toBe(401);
      expect((await register(payload)).statusCode).toBe(201);
    });
  });

  describe('members created by an admin (/addemployee)', () => {
    it('creates an approved member who can sign in at once, with the same rules and duplicates', async () => {
      const { acceptTerms: _unused, ...payload } = member();
      const create = (body: object, token = adminToken) =>
        h.app.inject({
          method: 'POST',
          url: '/api/admin/members',
          payload: body,
          headers: { authorization: `Bearer ${token}` },
        });
      const created = await create(payload);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ success: true, message: 'สร้างบัญชีสมาชิกเรียบร้อยแล้ว' });
      const types = (await h.store.readStream(`account-${created.json()._id}`)).map((event) => event.type);
      expect(types).toEqual(['MemberRegistered', 'MemberApproved']);
      expect((await loginAs(h.app, payload.username, payload.password)).response.statusCode).toBe(200);

      const before = await eventCount(h.db);
      expect((await create(payload)).json().fields).toMatchObject({ username: true, personalId: true });
      expect((await create({ ...payload, personalId: '1101700000002' })).statusCode).toBe(400);
      const memberToken = (await loginAs(h.app, payload.username, payload.password)).token!;
      expect((await create(member(), memberToken)).statusCode).toBe(403);
      expect(await eventCount(h.db)).toBe(before);
    });
  });

  describe('roles come from the verified session only', () => {
    it('refuses admin routes without a session, with a member session, and with a forged token', async () => {
      const payload = member();
      const { _id } = (await register(payload)).json();
      await setStatus(_id, 'approved');
      const memberToken = (await loginAs(h.app, payload.username, payload.password)).token!;
      const forged = `${adminToken.slice(0, -4)}AAAA`;
      const none = await h.app.inject({
        method: 'PUT',
        url: `/api/admin/registration/${_id}/status`,
        payload: { status: 'rejected' },
      });
      expect(none.statusCode).toBe(401);
      expect((await setStatus(_id, 'rejected', memberToken)).statusCode).toBe(403);
      expect((await setStatus(_id, 'rejected', forged)).statusCode).toBe(401);
      // The cookie works like the bearer header.
      const viaCookie = await h.app.inject({
        method: 'PUT',
        url: `/api/admin/registration/${_id}/status`,
        payload: { status: 'rejected' },
        cookies: { token: adminToken },
      });
      expect(viaCookie.statusCode).toBe(200);
    });
  });
});
