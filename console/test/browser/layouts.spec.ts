import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember } from '@portal/platform/testing/accounts';
import { SCREENSHOTS, chromiumSkipReason, ADMIN, withPortalAndBrowser } from './chromium.ts';

describe.skipIf(chromiumSkipReason())('the admin and partner layouts', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  let adminToken: string;

  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const response = await fetch(`${portal.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { _id: string; partner: { token: string } };
  };

  beforeAll(async () => {
    adminToken = (await post('/api/login', ADMIN)).partner.token;
  });

  async function signedIn(
    username: string,
    password: string,
    options: { lang?: 'en' | 'th'; width?: number; theme?: 'dark' } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1280, height: 800 },
      acceptDownloads: true,
    });
    await context.addInitScript(
      ([lang, theme]) => {
        localStorage.setItem('lang', lang!);
        if (theme) localStorage.setItem('theme', theme);
      },
      [options.lang ?? 'en', options.theme ?? ''],
    );
    const page = await context.newPage();
    await page.goto(`${portal.url}/`);
    await page.getByLabel(/^(username|ชื่อผู้ใช้)$/i).fill(username);
    await page.getByLabel(/^(password|รหัสผ่าน)$/i).fill(password);
    await page.getByRole('button', { name: /^(log in|เข้าสู่ระบบ)$/i }).click();
    await page.waitForURL(/\/(admin|e-market|partner)$/);
    return page;
  }

  async function approvedMember() {
    const person = sampleMember();
    const { _id } = await post('/api/members/register', person);
    await post(`/api/admin/registration/${_id}/status`, { status: 'approved' }, adminToken, 'PUT');
    return { person, id: _id };
  }

  it('gives admins the sidebar: logo, role and id, a folding course group, and logout', async () => {
    const page = await signedIn(ADMIN.username, ADMIN.password);
    const sidebar = page.getByRole('complementary', { name: 'Menu' });
    expect(await sidebar.isVisible()).toBe(true);
    expect(await sidebar.textContent()).toContain('Role: admin');
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await sidebar.getByRole('link', { name: 'Course Portal' }).getAttribute('href')).toBe('/admin');
    const courseList = sidebar.getByRole('link', { name: 'Course list' });
    expect(await courseList.isVisible()).toBe(true);
    await sidebar.getByRole('button', { name: /Course management/ }).click();
    expect(await courseList.isVisible()).toBe(false);
    await sidebar.getByRole('button', { name: /Course management/ }).click();
    expect(await courseList.isVisible()).toBe(true);
    await sidebar.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${portal.url}/`);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('turns the sidebar into a drawer at 375 px, in Thai with the Buddhist-era date, and in the dark theme', async () => {
    const page = await signedIn(ADMIN.username, ADMIN.password, { lang: 'th', width: 375, theme: 'dark' });
    const sidebar = page.locator('#admin-sidebar');
    expect(await sidebar.isVisible()).toBe(false);
    expect(await page.getByTestId('header-date').textContent()).toBe(
      new Date().toLocaleDateString('th-TH', { dateStyle: 'full' }),
    );
    expect(await page.getByTestId('header-date').textContent()).toContain('พ.ศ.');
    // Nothing in the header is hidden or cut short on a phone: brand, date (shorter, still พ.ศ.),
    // clock, the user's name.
    expect(await page.getByTestId('header-date-short').textContent()).toMatch(/25\d\d/);
    for (const part of [
      page.locator('.header .brand'),
      page.getByTestId('header-date-short'),
      page.getByTestId('header-clock'),
      page.locator('.user-menu summary'),
    ]) {
      expect(await part.isVisible()).toBe(true);
      expect(await part.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-375-closed-th.png') });
    await page.getByRole('button', { name: 'เมนู' }).click();
    await expect.poll(() => sidebar.isVisible()).toBe(true);
    await page.waitForTimeout(300); // let the slide finish before the picture
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-375-drawer-th.png') });
    await sidebar.getByRole('link', { name: 'ตั้งค่าบัญชี' }).click();
    await page.waitForURL(`${portal.url}/setting`);
    await expect.poll(() => sidebar.isVisible()).toBe(false);
  });

  it('tells each person refused a page what fits them, with a way out, before asking the API anything', async () => {
    const { person } = await approvedMember();
    const page = await signedIn(person.username, person.password);
    const coursesAsked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/admin/courses')) coursesAsked.push(request.url());
    });
    // A member on the report: the spec's sentence for it, and the way back to their own home.
    await page.goto(`${portal.url}/report`);
    await page.getByRole('heading', { level: 1, name: 'Access Denied' }).waitFor();
    await page.getByText('You do not have permission to view this page.').waitFor();
    await page.getByRole('link', { name: 'Back to my home' }).click();
    await page.waitForURL(`${portal.url}/e-market`);
    expect(coursesAsked).toEqual([]);
    // A page for partners and admins names both, not only administrators.
    await page.goto(`${portal.url}/courses`);
    await page
      .getByText(
        'You do not have the necessary permissions to view this page. Please log in with a partner or administrator account.',
      )
      .waitFor();
    await page.context().close();

    // A visitor is asked to sign in, not to find an administrator account.
    const visitor = await browser.newPage();
    await visitor.goto(`${portal.url}/admin`);
    await visitor.getByText('Please log in to view this page.').waitFor();
    expect(await visitor.getByText(/administrator account/).count()).toBe(0);
    await visitor.getByRole('link', { name: 'Go to Login' }).waitFor();
    await visitor.close();
  });

  it('gives members the profile QR card: a 200 px QR to save or mail, and logout', async () => {
    const { person, id } = await approvedMember();
    const page = await signedIn(person.username, person.password);
    const card = page.getByRole('region', { name: 'QR Code โปรไฟล์ผู้ใช้' });
    expect(await card.locator('canvas').getAttribute('width')).toBe('200');
    expect(await card.locator('canvas').getAttribute('title')).toBe(`${portal.url}/api/members/profile/${id}`);
    expect(await page.locator('#admin-sidebar').count()).toBe(0);
    const mail = await card.getByRole('link', { name: 'Send by e-mail' }).getAttribute('href');
    expect(mail).toMatch(/^mailto:\?subject=/);
    expect(decodeURIComponent(mail!)).toContain(`/api/members/profile/${id}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'Save image' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('user_profile_qrcode.png');
    await page.screenshot({ path: join(SCREENSHOTS, 'member-qr-card-en.png') });

    // Other roles' pages show the Access Denied view, with the way to the login screen.
    await page.goto(`${portal.url}/registrations`);
    await page
      .getByText(
        'You do not have the necessary permissions to view this page. Please log in with an administrator account.',
      )
      .waitFor();
    await page.getByRole('link', { name: 'Go to Login' }).click(); // a link that looks like a button
    await page.waitForURL(`${portal.url}/login`);

    await page.goto(`${portal.url}/e-market`);
    await card.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${portal.url}/`);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });
});
