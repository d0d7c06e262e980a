// Over 250 lines: both registration forms, their field messages in Thai and English and an admin's approval, in one
// Chromium session on one portal: split, each part would start both again.
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { SCREENSHOTS, chromiumSkipReason, ADMIN, withPortalAndBrowser } from './chromium.ts';

describe.skipIf(chromiumSkipReason())('registering members and partners through the console', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  let adminToken: string;

  beforeAll(async () => {
    const login = await fetch(`${portal.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    adminToken = ((await login.json()) as { partner: { token: string } }).partner.token;
  });

  async function page(lang: 'en' | 'th', path: string, width = 1280): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((value) => localStorage.setItem('lang', value), lang);
    const p = await context.newPage();
    await p.goto(`${portal.url}${path}`);
    return p;
  }
  const labelled = (label: string) => new RegExp(`^${label}( \\*)?$`);
  const field = (scope: Page | Locator, label: string) => scope.getByLabel(labelled(label));
  // `has` is matched inside each .field, so its locator starts from the page, not from the scope.
  const errorOf = (scope: Page | Locator, label: string) => {
    const root = 'page' in scope && typeof scope.page === 'function' ? scope.page() : (scope as Page);
    return scope.locator('.field', { has: root.getByLabel(labelled(label)) }).locator('.field-error');
  };
  /** The registration report as an admin's API call reads it (with no position to wait for). */
  async function registrations() {
    const answer = await fetch(`${portal.url}/api/admin/registration`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    return ((await answer.json()) as { members: Record<string, unknown>[] }).members;
  }
  async function chooseBangkokAddress(scope: Page | Locator, labels: Record<string, string>) {
    await field(scope, labels.province!).selectOption({ label: 'กรุงเทพมหานคร' });
    await field(scope, labels.district!).selectOption({ label: 'วัฒนา' });
    await field(scope, labels.subdistrict!).selectOption({ label: 'คลองเตยเหนือ' });
  }
  const thaiLabels = { province: 'จังหวัด', district: 'อำเภอ/เขต', subdistrict: 'ตำบล/แขวง', postal: 'รหัสไปรษณีย์' };

  it('registers a member in Thai: messages on input and on submit, the address cascade, consent, success', async () => {
    const p = await page('th', '/register');
    await p.getByRole('button', { name: 'สมัครสมาชิก' }).click();
    expect(await errorOf(p, 'ชื่อผู้ใช้').textContent()).toBe('กรุณากรอกชื่อผู้ใช้');
    expect(await errorOf(p, 'รหัสผ่าน').textContent()).toBe('กรุณากรอกรหัสผ่าน');
    expect(await errorOf(p, 'เลขบัตรประชาชน').textContent()).toBe('กรุณากรอกเลขบัตรประชาชน');
    expect(await errorOf(p, 'เบอร์โทรศัพท์').textContent()).toBe('กรุณากรอกเบอร์โทรศัพท์');
    expect(await errorOf(p, 'อีเมล').textContent()).toBe('กรุณากรอกอีเมล์');
    expect(await p.getByText('กรุณายอมรับข้อตกลงและนโยบายความเป็นส่วนตัว').count()).toBe(1);
    await p.screenshot({ path: join(SCREENSHOTS, 'register-errors-th.png'), fullPage: true });

    // On input: each rule's message as the person types, the check digit included.
    await field(p, 'ชื่อผู้ใช้').fill('abc');
    expect(await errorOf(p, 'ชื่อผู้ใช้').textContent()).toBe('ชื่อผู้ใช้ต้องมีอย่างน้อย 6 ตัวอักษร');
    await field(p, 'รหัสผ่าน').fill('รหัสผ่านยาวพอ');
    expect(await errorOf(p, 'รหัสผ่าน').textContent()).toBe('รหัสผ่านไม่ควรมีตัวอักษรภาษาไทย');
    await field(p, 'เลขบัตรประชาชน').fill('1101700000002');
    expect(await errorOf(p, 'เลขบัตรประชาชน').textContent()).toBe('เลขบัตรประชาชนไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง');
    await field(p, 'เลขบัตรประชาชน').fill('12345678901234567');
    expect(await field(p, 'เลขบัตรประชาชน').inputValue()).toHaveLength(13);
    await field(p, 'อีเมล').fill('not-an-email');
    expect(await errorOf(p, 'อีเมล').textContent()).toBe('กรุณากรอกอีเมล์ที่ถูกต้อง');

    const person = sampleMember();
    await field(p, 'ชื่อผู้ใช้').fill(person.username);
    await field(p, 'รหัสผ่าน').fill(person.password);
    await field(p, 'คำนำหน้า').selectOption('นาย');
    await field(p, 'ชื่อ-นามสกุล').fill(person.fullName);
    await field(p, 'เลขบัตรประชาชน').fill(person.personalId);
    await field(p, 'เบอร์โทรศัพท์').fill(person.personalPhone);
    await field(p, 'อีเมล').fill(person.personalEmail);
    await field(p, 'ที่อยู่').fill(person.personalAddress);
    expect(await errorOf(p, 'ชื่อผู้ใช้').count()).toBe(0);

    // The cascade: each picker waits for the one above; a new province clears what was below.
    expect(await field(p, 'อำเภอ/เขต').isDisabled()).toBe(true);
    expect(await field(p, 'ตำบล/แขวง').isDisabled()).toBe(true);
    await chooseBangkokAddress(p, thaiLabels);
    expect(await field(p, 'รหัสไปรษณีย์').inputValue()).toBe('10110');
    await field(p, 'จังหวัด').selectOption({ label: 'เชียงใหม่' });
    expect(await field(p, 'อำเภอ/เขต').inputValue()).toBe('');
    expect(await field(p, 'ตำบล/แขวง').isDisabled()).toBe(true);
    expect(await field(p, 'รหัสไปรษณีย์').inputValue()).toBe('');
    await chooseBangkokAddress(p, thaiLabels);

    // The terms open in a modal.
    await p.getByRole('button', { name: 'ข้อตกลงการใช้งาน' }).click();
    await p.getByRole('dialog').getByText('ปรับปรุงล่าสุดเมื่อวันที่ 14 มิถุนายน 2567').waitFor();
    await p.screenshot({ path: join(SCREENSHOTS, 'register-terms-th.png') });
    await p.getByRole('button', { name: 'ปิด' }).click();
    await p.getByRole('checkbox').check();
    await p.screenshot({ path: join(SCREENSHOTS, 'register-filled-th.png'), fullPage: true });
    await p.getByRole('button', { name: 'สมัครสมาชิก' }).click();
    await expect.poll(() => p.getByRole('alertdialog').textContent()).toContain('สมัครสมาชิกสำเร็จ!');
    await p.getByRole('button', { name: 'ตกลง', exact: true }).click();
    await expect.poll(() => new URL(p.url()).pathname).toBe('/');

    // The report reads the projected list, a moment behind the registration.
    const listed = () => registrations().then((all) => all.find((m) => m.username === person.username));
    await expect.poll(listed).toMatchObject({
      status: 'pending',
      personalEmail: person.personalEmail.toLowerCase(),
      personalProvince: 'กรุงเทพมหานคร',
      personalDistrict: 'วัฒนา',
      personalSubdistrict: 'คลองเตยเหนือ',
      personalPostalCode: '10110',
    });

    // The same person again: the taken fields say so under themselves.
    const again = await page('th', '/register');
    await field(again, 'ชื่อผู้ใช้').fill(person.username);
    await field(again, 'รหัสผ่าน').fill(person.password);
    await field(again, 'เลขบัตรประชาชน').fill(person.personalId);
    await field(again, 'เบอร์โทรศัพท์').fill(person.personalPhone);
    await field(again, 'อีเมล').fill(`other-${person.personalEmail}`);
    await again.getByRole('checkbox').check();
    await again.getByRole('button', { name: 'สมัครสมาชิก' }).click();
    await expect.poll(() => errorOf(again, 'ชื่อผู้ใช้').textContent()).toBe('ชื่อผู้ใช้นี้ถูกใช้งานแล้ว');
    expect(await errorOf(again, 'เลขบัตรประชาชน').textContent()).toBe('เลขบัตรประชาชนนี้ถูกใช้งานแล้ว');
    expect(await errorOf(again, 'เบอร์โทรศัพท์').textContent()).toBe('เบอร์โทรศัพท์นี้ถูกใช้งานแล้ว');
    expect(await errorOf(again, 'อีเมล').count()).toBe(0);
    // The spec shows the taken fields under themselves, and no dialog besides; the first takes the focus.
    expect(await again.getByRole('alertdialog').count()).toBe(0);
    expect(await field(again, 'ชื่อผู้ใช้').evaluate((input) => input === document.activeElement)).toBe(true);
    await again.screenshot({ path: join(SCREENSHOTS, 'register-duplicate-th.png'), fullPage: true });
  });

  it('says when the server cannot be reached, and when the provinces cannot be loaded', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => localStorage.setItem('lang', 'th'));
    const p = await context.newPage();
    await p.route('**/api/address/provinces', (route) => route.abort());
    await p.route('**/api/members/register', (route) => route.abort());
    await p.goto(`${portal.url}/register`);
    await expect
      .poll(() => p.getByRole('alertdialog').textContent(), { timeout: 10_000 })
      .toContain('ไม่สามารถโหลดข้อมูลจังหวัดได้');
    await p.getByRole('button', { name: 'ตกลง', exact: true }).click();
    const person = sampleMember();
    await field(p, 'ชื่อผู้ใช้').fill(person.username);
    await field(p, 'รหัสผ่าน').fill(person.password);
    await field(p, 'เลขบัตรประชาชน').fill(person.personalId);
    await field(p, 'เบอร์โทรศัพท์').fill(person.personalPhone);
    await field(p, 'อีเมล').fill(person.personalEmail);
    await p.getByRole('checkbox').check();
    await p.getByRole('button', { name: 'สมัครสมาชิก' }).click();
    await expect.poll(() => p.getByRole('alertdialog').textContent()).toContain('เกิดข้อผิดพลาด');
    expect(await p.getByRole('alertdialog').textContent()).toContain('ไม่สามารถเชื่อมต่อกับเซิร์ฟเวอร์');
  });

  it('registers a partner in English with the company, and the report shows them with their company', async () => {
    const p = await page('en', '/registeradmin');
    await p.getByRole('button', { name: 'Register' }).click();
    await p.screenshot({ path: join(SCREENSHOTS, 'register-partner-errors-en.png'), fullPage: true });
    const personal = p.getByRole('group', { name: 'Personal data' });
    const company = p.getByRole('group', { name: 'Company data' });
    expect(await errorOf(personal, 'Title').textContent()).toBe('Please choose a title.');
    expect(await errorOf(company, 'Tax ID').textContent()).toBe('Please enter the tax ID.');
    expect(await errorOf(company, 'Latitude').textContent()).toBe('Please enter the latitude.');
    expect(await errorOf(company, 'Province').textContent()).toBe('Please choose a province.');

    const partner = samplePartner();
    await field(personal, 'Username').fill(partner.username);
    await field(personal, 'Password').fill(partner.password);
    await field(personal, 'Title').selectOption('อื่นๆ');
    await field(personal, 'Full name').fill(partner.fullName);
    await field(personal, 'National ID number').fill(partner.personalId);
    await field(personal, 'Phone number').fill(partner.personalPhone);
    await field(personal, 'E-mail').fill(partner.personalEmail);
    await field(personal, 'Address').fill(partner.personalAddress);
    const english = { province: 'Province', district: 'District', subdistrict: 'Subdistrict' };
    await field(personal, 'Province').selectOption({ label: 'Bangkok' });
    await field(personal, 'District').selectOption({ index: 1 });
    await field(personal, 'Subdistrict').selectOption({ index: 1 });
    expect(await field(personal, 'Postal code').inputValue()).toMatch(/^\d{5}$/);
    await field(company, 'Company name').fill(partner.companyName);
    await field(company, 'Tax ID').fill(partner.companyTaxId);
    await field(company, 'Company phone number').fill(partner.companyPhone);
    await field(company, 'Company e-mail').fill(partner.companyEmail);
    await field(company, 'Address').fill(partner.companyAddress);
    await field(company, english.province).selectOption({ label: 'Chiang Mai' });
    await field(company, english.district).selectOption({ index: 1 });
    await field(company, english.subdistrict).selectOption({ index: 1 });
    await field(company, 'Latitude').fill('abc');
    expect(await errorOf(company, 'Latitude').textContent()).toBe('Latitude must be a number from -90 to 90.');
    await field(company, 'Latitude').fill('18.7883');
    await field(company, 'Longitude').fill('98.9853');
    await p.getByRole('checkbox').check();
    await p.screenshot({ path: join(SCREENSHOTS, 'register-partner-en.png'), fullPage: true });
    await p.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => p.getByRole('alertdialog').textContent()).toContain('Registration successful!');

    // The report reads the projected list, a moment behind the registration.
    const listed = () => registrations().then((all) => all.find((m) => m.username === partner.username));
    await expect.poll(listed).toMatchObject({
      role: 'partner',
      status: 'pending',
      title: 'อื่นๆ',
      personalProvince: 'กรุงเทพมหานคร',
      companyName: partner.companyName,
      company: { companyProvince: 'เชียงใหม่', shopLatitude: 18.7883, shopLongitude: 98.9853 },
    });
  });

  it('lets an admin create an approved member on Manage employee, with the same form and rules', async () => {
    const p = await page('en', '/');
    await p.getByLabel(/^username$/i).fill(ADMIN.username);
    await p.getByLabel(/^password$/i).fill(ADMIN.password);
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.waitForURL(/\/admin$/);
    await p.getByRole('link', { name: 'Manage employee' }).click();
    await p.getByRole('heading', { name: 'Manage employee' }).waitFor();
    expect(await p.getByRole('checkbox').count()).toBe(0); // no consent asked here
    const person = sampleMember();
    await field(p, 'Username').fill(person.username);
    await field(p, 'Password').fill(person.password);
    await field(p, 'National ID number').fill('1101700000002');
    expect(await errorOf(p, 'National ID number').textContent()).toBe(
      'This national ID number is not valid. Please check it.',
    );
    await field(p, 'National ID number').fill(person.personalId);
    await field(p, 'Phone number').fill(person.personalPhone);
    await field(p, 'E-mail').fill(person.personalEmail);
    await p.getByRole('button', { name: 'Create member account' }).click();
    await expect.poll(() => p.getByRole('alertdialog').textContent()).toContain('Member account created.');
    await p.getByRole('button', { name: 'OK' }).click();
    expect(await field(p, 'Username').inputValue()).toBe('');
    const login = await fetch(`${portal.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: person.username, password: person.password }),
    });
    expect(login.status).toBe(200);
  });

  it('shows the legal texts in both languages, the terms in 15 sections', async () => {
    for (const [lang, updated] of [
      ['th', 'ปรับปรุงล่าสุดเมื่อวันที่ 14 มิถุนายน 2567'],
      ['en', 'Last updated 14 June 2024 (2567 BE)'],
    ] as const) {
      const p = await page(lang, '/terms');
      await p.getByText(updated).waitFor();
      expect(await p.locator('.legal ol > li').count()).toBe(15);
      await p.screenshot({ path: join(SCREENSHOTS, `terms-${lang}.png`), fullPage: true });
    }
    const policy = await page('th', '/policy');
    await policy.getByText('ปรับปรุงล่าสุดเมื่อวันที่ 16 มิถุนายน 2568').waitFor();
    const cookie = await page('en', '/cookie');
    await cookie.getByText('Last updated 16 June 2025 (2568 BE)').waitFor();
  });
});
