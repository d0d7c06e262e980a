import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import {
  eventCount,
  loginAs,
  member,
  multipart,
  png,
  profileOf,
  type StartedCommandApi,
  withCommandApi,
} from './harness.ts';

describe.each(testDatabases())('account settings on $name', (database) => {
  let h: StartedCommandApi;
  let adminToken: string;
  withCommandApi(database, (started, token) => ((h = started), (adminToken = token)));

  async function approvedMember(overrides: Record<string, unknown> = {}) {
    const person = member(overrides);
    const { _id } = (await h.app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
    await h.app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${_id}/status`,
      payload: { status: 'approved' },
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const token = (await loginAs(h.app, person.username, person.password)).token!;
    return { person, id: _id as string, token };
  }
  const put = (url: string, token: string, payload: object, language = 'th') =>
    h.app.inject({
      method: 'PUT',
      url,
      payload,
      headers: { authorization: `Bearer ${token}`, 'accept-language': language },
    });

  it('saves the profile: sign-in answers the new name and contacts, the old phone is free again', async () => {
    const { person, id, token } = await approvedMember();
    const changes = { fullName: 'Somsri Changed', personalPhone: '0899999001', personalEmail: 'New.Mail@Example.com' };
    const saved = await put(`/api/members/profile/${id}`, token, profileOf(person, changes));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ success: true, message: 'บันทึกข้อมูลเรียบร้อยแล้ว' });
    const signedIn = await loginAs(h.app, person.username, person.password);
    expect(signedIn.response.json().partner).toMatchObject({
      title: 'นาง',
      fullName: 'Somsri Changed',
      personalPhone: '0899999001',
      personalEmail: 'new.mail@example.com',
    });
    // The old phone is free, the new one taken.
    const other = member({ personalPhone: person.personalPhone });
    expect((await h.app.inject({ method: 'POST', url: '/api/members/register', payload: other })).statusCode).toBe(201);
    const taken = member({ personalPhone: '0899999001' });
    const refused = await h.app.inject({ method: 'POST', url: '/api/members/register', payload: taken });
    expect(refused.json().fields.personalPhone).toBe(true);
  });

  it("checks the profile with the spec's messages and appends nothing when refused", async () => {
    const { person, id, token } = await approvedMember();
    const before = await eventCount(h.db);
    const empty = await put(
      `/api/members/profile/${id}`,
      token,
      profileOf(person, { fullName: '', personalEmail: '', personalPhone: '' }),
      'en',
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({
      fullName: 'Full Name, Email, and Phone are required.',
      personalEmail: 'Full Name, Email, and Phone are required.',
      personalPhone: 'Full Name, Email, and Phone are required.',
    });
    const bad = await put(
      `/api/members/profile/${id}`,
      token,
      profileOf(person, { personalEmail: 'nope', personalPhone: '08-1234567' }),
      'en',
    );
    expect(bad.json().errors).toEqual({
      personalEmail: 'Please enter a valid email address.',
      personalPhone: 'Phone number should contain only digits.',
    });
    const { person: someoneElse } = await approvedMember();
    const duplicate = await put(
      `/api/members/profile/${id}`,
      token,
      profileOf(person, { personalEmail: someoneElse.personalEmail }),
    );
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors).toEqual({ personalEmail: 'อีเมลนี้ถูกใช้งานแล้ว' });
    expect(await eventCount(h.db)).toBe(before + 3); // only the other member's registration, consent, approval
  });

  it('lets only the owner or an admin change a profile, and only the owner a password', async () => {
    const a = await approvedMember();
    const b = await approvedMember();
    const other = await put(`/api/members/profile/${b.id}`, a.token, profileOf(b.person), 'en');
    expect(other.statusCode).toBe(403);
    // The refusal says whose this is, not "log in with an administrator account".
    expect(other.json().message).toBe('Only the owner of this account or an administrator can do this.');
    expect((await put(`/api/members/profile/${b.id}`, adminToken, profileOf(b.person))).statusCode).toBe(200);
    const change = {
      currentPassword: b.person.password,
      newPassword: 'brand-new-1',
      confirmNewPassword: 'brand-new-1',
    };
    const byAdmin = await put(`/api/members/change-password/${b.id}`, adminToken, change, 'en');
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe('Only the owner of this account can do this.');
    const inThai = await put(`/api/members/change-password/${b.id}`, adminToken, change, 'th');
    expect(inThai.json().message).toBe('ทำได้เฉพาะเจ้าของบัญชีนี้');
    const anonymous = await h.app.inject({ method: 'PUT', url: `/api/members/profile/${b.id}`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('changes the password after checking the current one, with the spec messages', async () => {
    const { person, id, token } = await approvedMember();
    const url = `/api/members/change-password/${id}`;
    const wrong = await put(url, token, { currentPassword: 'not-it-at-all', newPassword: 'new-pass-1' }, 'en');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({
      currentPassword: 'Failed to update password. Please check your current password.',
    });
    const short = await put(url, token, { currentPassword: person.password, newPassword: '12345' }, 'en');
    expect(short.json().errors).toEqual({ newPassword: 'New password must be at least 6 characters long.' });
    const mismatch = await put(
      url,
      token,
      { currentPassword: person.password, newPassword: '123456', confirmNewPassword: '1234567' },
      'en',
    );
    expect(mismatch.json().errors).toEqual({ confirmNewPassword: 'New password and confirm password do not match.' });
    const missing = await put(url, token, { currentPassword: '', newPassword: '' }, 'en');
    expect(missing.json().errors.currentPassword).toBe('All password fields are required.');

    const changed = await put(url, token, { currentPassword: person.password, newPassword: '123456' });
    expect(changed.statusCode).toBe(200);
    expect((await loginAs(h.app, person.username, person.password)).response.statusCode).toBe(401);
    expect((await loginAs(h.app, person.username, '123456')).response.statusCode).toBe(200);
    const [raw] = await h.db.query<{ text: string }>(
      `SELECT string_agg(data::text, ' ') AS text FROM es.events WHERE stream_id = $1`,
      [`account-${id}`],
    );
    expect(raw!.text).toContain('changedAt');
    expect(raw!.text).not.toContain('argon2');
  });

  it('stores an uploaded photo re-encoded to 150x150 and refuses what is not an image or too large', async () => {
    const { person, id, token } = await approvedMember();
    const upload = async (content: Buffer, filename: string, type: string, field = 'profileImage') => {
      const body = await multipart(field, content, filename, type);
      return h.app.inject({
        method: 'POST',
        url: `/api/members/uploadprofile/${id}`,
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${token}`, 'accept-language': 'en' },
      });
    };
    const uploaded = await upload(await png(600, 400), 'me.png', 'image/png');
    expect(uploaded.statusCode).toBe(200);
    const { imageUrl } = uploaded.json();
    expect(imageUrl).toMatch(new RegExp(`^/uploads/profiles/${id}/[0-9a-f-]{36}\\.webp$`));
    const stored = await sharp(await readFile(join(h.uploadsDir, imageUrl.slice('/uploads/'.length)))).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 150, height: 150 });

    const text = await upload(Buffer.from('<script>alert(1)</script>'), 'evil.png', 'image/png');
    expect(text.statusCode).toBe(400);
    expect(text.json().errors).toEqual({ profileImage: 'Please choose a JPEG, PNG, WebP or GIF image.' });
    const large = await upload(Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'big.png', 'image/png');
    expect(large.statusCode).toBe(413);
    expect(large.json().errors).toEqual({ profileImage: 'The image must be 2 MB or smaller.' });
    const wrongField = await upload(await png(10, 10), 'me.png', 'image/png', 'photo');
    expect(wrongField.statusCode).toBe(400);

    // The profile keeps the photo; another account's photo address is refused.
    expect(
      (await put(`/api/members/profile/${id}`, token, profileOf(person, { profile_img: imageUrl }))).statusCode,
    ).toBe(200);
    const other = await approvedMember();
    const stolen = await put(
      `/api/members/profile/${other.id}`,
      other.token,
      profileOf(other.person, { profile_img: imageUrl }),
    );
    expect(stolen.statusCode).toBe(400);
  });
});
