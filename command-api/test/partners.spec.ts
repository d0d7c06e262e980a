import { describe, expect, it } from 'vitest';
import { CompanyData, PersonalData } from '@portal/contracts/accounts/account.events';
import type { Sealed } from '@portal/contracts/privacy/sealed';
import { open } from '@portal/platform/privacy/personal-data';
import { samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { eventCount, loginAs, type StartedCommandApi, withCommandApi } from './harness.ts';

describe.each(testDatabases())('partner registration on $name', (database) => {
  let h: StartedCommandApi;
  let adminToken: string;
  withCommandApi(database, (started, token) => ((h = started), (adminToken = token)));

  const register = (payload: unknown, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'POST', url: '/api/partners/register', payload: payload as object, headers });

  it('registers a partner with the company, coordinates as numbers, pending approval like members', async () => {
    const partner = { ...samplePartner(), personalProvinceId: 10, companyProvinceId: 10 }; // the form posts ids too
    const response = await register(partner);
    expect(response.statusCode).toBe(201);
    const { _id } = response.json();
    const [registered] = await h.store.readStream(`account-${_id}`);
    expect(registered!.type).toBe('PartnerRegistered');
    const data = registered!.data as { personal: Sealed; company: Sealed };
    expect(await open(h.db, data.personal, PersonalData)).toMatchObject({ title: 'อื่นๆ', username: partner.username });
    expect(await open(h.db, data.company, CompanyData)).toEqual({
      companyName: partner.companyName,
      companyTaxId: partner.companyTaxId,
      companyAddress: partner.companyAddress,
      companyProvince: partner.companyProvince,
      companyDistrict: partner.companyDistrict,
      companySubdistrict: partner.companySubdistrict,
      companyPostalCode: partner.companyPostalCode,
      companyPhone: partner.companyPhone,
      companyEmail: partner.companyEmail,
      shopLatitude: 13.7307,
      shopLongitude: 100.5418,
    });

    const pending = await loginAs(h.app, partner.username, partner.password);
    expect(pending.response.statusCode).toBe(403);
    expect(pending.response.json().status).toBe('รอยืนยัน');
    const approve = await h.app.inject({
      method: 'PUT',
      url: `/api/admin/registration/${_id}/status`,
      payload: { status: 'approved' },
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(approve.statusCode).toBe(200);
    const signedIn = await loginAs(h.app, partner.username, partner.password);
    expect(signedIn.response.json().partner).toMatchObject({ _id, partnerId: _id, role: 'partner', title: 'อื่นๆ' });
  });

  it('requires every starred field, each with its own message, and appends nothing', async () => {
    const before = await eventCount(h.db);
    const response = await register({});
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      username: 'กรุณากรอกชื่อผู้ใช้',
      password: 'กรุณากรอกรหัสผ่าน',
      title: 'กรุณาเลือกคำนำหน้า',
      fullName: 'กรุณากรอกชื่อ-นามสกุล',
      personalId: 'กรุณากรอกเลขบัตรประชาชน',
      personalPhone: 'กรุณากรอกเบอร์โทรศัพท์',
      personalEmail: 'กรุณากรอกอีเมล์',
      personalAddress: 'กรุณากรอกที่อยู่',
      personalProvince: 'กรุณาเลือกจังหวัด',
      personalDistrict: 'กรุณาเลือกอำเภอ/เขต',
      personalSubdistrict: 'กรุณาเลือกตำบล/แขวง',
      companyName: 'กรุณากรอกชื่อบริษัท',
      companyTaxId: 'กรุณากรอกเลขประจำตัวผู้เสียภาษี',
      companyAddress: 'กรุณากรอกที่อยู่',
      companyProvince: 'กรุณาเลือกจังหวัด',
      companyDistrict: 'กรุณาเลือกอำเภอ/เขต',
      companySubdistrict: 'กรุณาเลือกตำบล/แขวง',
      companyPhone: 'กรุณากรอกเบอร์โทรศัพท์',
      companyEmail: 'กรุณากรอกอีเมล์',
      shopLatitude: 'กรุณากรอกละติจูด',
      shopLongitude: 'กรุณากรอกลองจิจูด',
      acceptTerms: 'กรุณายอมรับข้อตกลงและนโยบายความเป็นส่วนตัว',
    });
    expect(await eventCount(h.db)).toBe(before);
  });

  it('checks lengths, digits, the tax id check digit and the coordinates, in English when asked', async () => {
    const response = await register(
      samplePartner({
        companyTaxId: '0105500000000',
        companyPhone: '02123',
        shopLatitude: 'north',
        shopLongitude: 181,
        title: 'Dr',
      }),
      { 'accept-language': 'en' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      title: 'Please choose a title.',
      companyTaxId: 'This tax ID is not valid. Please check it.',
      companyPhone: 'The phone number must have 10 digits.',
      shopLatitude: 'Latitude must be a number from -90 to 90.',
      shopLongitude: 'Longitude must be a number from -180 to 180.',
    });
  });

  it('answers duplicates with `conflicts`, the Thai labels of every taken field', async () => {
    const first = samplePartner();
    expect((await register(first)).statusCode).toBe(201);
    const before = await eventCount(h.db);
    const response = await register({ ...first, companyEmail: first.companyEmail.toUpperCase() });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      success: false,
      error: 'ข้อมูลซ้ำกับในระบบ',
      conflicts: ['ชื่อผู้ใช้', 'เลขบัตรประชาชน', 'เบอร์โทรศัพท์', 'อีเมล', 'เลขประจำตัวผู้เสียภาษี', 'อีเมลบริษัท'],
    });
    expect(await eventCount(h.db)).toBe(before);
    // A member cannot take the partner's username, national id, phone or e-mail either.
    const member = await h.app.inject({
      method: 'POST',
      url: '/api/members/register',
      payload: { ...first, title: 'นาย', acceptTerms: true },
    });
    expect(member.json().fields).toEqual({
      username: true,
      personalId: true,
      personalPhone: true,
      personalEmail: true,
    });
  });
});
