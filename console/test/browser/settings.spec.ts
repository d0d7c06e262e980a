import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember } from '@portal/platform/testing/accounts';
import { SCREENSHOTS, chromiumSkipReason, ADMIN, withPortalAndBrowser } from './chromium.ts';

describe.skipIf(chromiumSkipReason())('account settings through the console', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  let adminToken: string;

  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const response = await fetch(`${portal.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read loosely
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    adminToken = (await call('/api/login', { method: 'POST', body: ADMIN })).body.partner.token;
  });

  async function approvedMember() {
    const person = sampleMember();
    const { body } = await call('/api/members/register', { method: 'POST', body: person });
    await call(`/api/admin/registration/${body._id}/status`, {
      method: 'PUT',
      body: { status: 'approved' },
      token: adminToken,
    });
    return { person, id: body._id as string };
  }

  async function signedIn(lang: 'en' | 'th', username: string, password: string, theme?: 'dark'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(
      ([l, th]) => {
        localStorage.setItem('lang', l!);
        if (th) localStorage.setItem('theme', th);
      },
      [lang, theme ?? ''],
    );
    const page = await context.newPage();
    await page.goto(`${portal.url}/`);
    await page.getByLabel(/^(username|ชื่อผู้ใช้)$/i).fill(username);
    await page.getByLabel(/^(password|รหัสผ่าน)$/i).fill(password);
    await page.getByRole('button', { name: /^(log in|เข้าสู่ระบบ)$/i }).click();
    await page.waitForURL(/\/e-market$/);
    await page.goto(`${portal.url}/setting`);
    return page;
  }
  const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

  it('saves the profile after confirmation, says so on cancel, and keeps it', async () => {
    const { person } = await approvedMember();
    const page = await signedIn('en', person.username, person.password);
    expect(await field(page, 'National ID number').inputValue()).toBe(person.personalId);
    expect(await field(page, 'National ID number').getAttribute('readonly')).not.toBeNull();
    await expect.poll(() => field(page, 'Province').inputValue(), { timeout: 10_000 }).not.toBe('');
    expect(await field(page, 'Subdistrict').inputValue()).not.toBe('');

    await field(page, 'Full name').fill('Somsri Settings');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alertdialog').getByText('Save these changes to your profile?').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Nothing was changed.').waitFor();

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Profile updated.').waitFor();
    await page.waitForURL(/\/e-market$/);
    await page.goto(`${portal.url}/setting`);
    expect(await field(page, 'Full name').inputValue()).toBe('Somsri Settings');
  });

  it('shows a banner for 5 seconds and field messages when the form is not valid', async () => {
    const { person } = await approvedMember();
    const page = await signedIn('en', person.username, person.password);
    await field(page, 'Full name').fill('');
    await field(page, 'Phone number').fill('08x');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const banner = page.locator('.banner');
    expect(await banner.textContent()).toBe('Full Name, Email, and Phone are required.');
    expect(await page.locator('.field-error').allTextContents()).toEqual(
      expect.arrayContaining(['Full Name, Email, and Phone are required.', 'Phone number should contain only digits.']),
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-errors-en.png'), fullPage: true });
    await expect.poll(() => banner.count(), { timeout: 8000 }).toBe(0);
  });

  it('uploads a photo, keeps it on save, and changes the password', async () => {
    const { person } = await approvedMember();
    const page = await signedIn('th', person.username, person.password);
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#0f766e' } })
      .png()
      .toBuffer();
    await page.locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: photo });
    await page.getByRole('button', { name: 'อัปโหลด' }).click();
    await page.getByText('อัปโหลดรูปภาพเรียบร้อยแล้ว').waitFor();
    expect(await page.locator('.photo img').getAttribute('src')).toMatch(/^\/uploads\/profiles\/.+\.webp$/);
    await page.getByRole('button', { name: 'บันทึกการเปลี่ยนแปลง' }).click();
    await page.getByRole('button', { name: 'ยืนยัน', exact: true }).click();
    await page.waitForURL(/\/e-market$/);
    await page.goto(`${portal.url}/setting`);
    await expect.poll(() => page.locator('.photo img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(150);
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-th.png'), fullPage: true });

    await field(page, 'รหัสผ่านปัจจุบัน').fill(person.password);
    await field(page, 'รหัสผ่านใหม่').fill('654321');
    await field(page, 'ยืนยันรหัสผ่านใหม่').fill('6543210');
    await page.getByRole('button', { name: 'เปลี่ยนรหัสผ่าน' }).click();
    expect(await page.locator('.banner').textContent()).toBe('รหัสผ่านใหม่และการยืนยันรหัสผ่านไม่ตรงกัน');
    await field(page, 'ยืนยันรหัสผ่านใหม่').fill('654321');
    await page.getByRole('button', { name: 'เปลี่ยนรหัสผ่าน' }).click();
    await page.getByRole('button', { name: 'ยืนยัน', exact: true }).click();
    await page.getByText('เปลี่ยนรหัสผ่านเรียบร้อยแล้ว').waitFor();
    expect((await call('/api/login', { method: 'POST', body: { ...person, password: '654321' } })).status).toBe(200);
  });

  it('says so when the user kept in the browser cannot be read, and signs out', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('planted')) {
        localStorage.setItem('token', 'x');
        localStorage.setItem('user', '{"role": "admin", broken');
        sessionStorage.setItem('planted', '1');
      }
    });
    const page = await context.newPage();
    await page.goto(`${portal.url}/setting`);
    await page.getByRole('alert').getByText('Invalid user data in local storage. Please log in again.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });

  it('looks right in the dark theme', async () => {
    const { person } = await approvedMember();
    const page = await signedIn('en', person.username, person.password, 'dark');
    await field(page, 'Full name').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(SCREENSHOTS, 'settings-dark-en.png'), fullPage: true });
  });
});
