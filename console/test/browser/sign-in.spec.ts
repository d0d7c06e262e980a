import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { messages } from '@portal/contracts/rules/messages';
import { sampleMember } from '@portal/platform/testing/accounts';
import { en } from '../../src/locales/en.ts';
import { th } from '../../src/locales/th.ts';
import { SCREENSHOTS, chromiumSkipReason, ADMIN, withPortalAndBrowser } from './chromium.ts';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';

describe.skipIf(chromiumSkipReason())('signing in through the console', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));

  async function freshPage(lang?: 'en' | 'th'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (lang) await context.addInitScript((value) => localStorage.setItem('lang', value), lang);
    return page;
  }

  async function signIn(page: Page, username: string, password: string) {
    await page.goto(`${portal.url}/`);
    await page.getByLabel(/username|ชื่อผู้ใช้/i).fill(username);
    await page.getByLabel(/password|รหัสผ่าน/i).fill(password);
    await page.getByRole('button', { name: /^(log in|เข้าสู่ระบบ)$/i }).click();
  }

  async function register(person: ReturnType<typeof sampleMember>): Promise<string> {
    const answer = await fetch(`${portal.url}/api/members/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(person),
    });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { _id: string })._id;
  }

  it('signs the admin in, says so, and lands on /admin with the date, clock and sidebar', async () => {
    const page = await freshPage();
    await page.goto(`${portal.url}/`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'login.png') });
    await signIn(page, ADMIN.username, ADMIN.password);
    await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain('Signed in successfully');
    await page.screenshot({ path: join(SCREENSHOTS, 'login-success.png') });
    await page.waitForURL(`${portal.url}/admin`);
    const date = await page.getByTestId('header-date').textContent();
    expect(date).toBe(new Date().toLocaleDateString('en-US', { dateStyle: 'full' }));
    const before = await page.getByTestId('header-clock').textContent();
    await expect.poll(() => page.getByTestId('header-clock').textContent(), { timeout: 3000 }).not.toBe(before);
    await expect
      .poll(() => page.locator('#admin-sidebar').getByRole('link', { name: 'Registration report' }).count())
      .toBe(1);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
    expect(stored).toMatchObject({ username: ADMIN.username, role: 'admin' });
    expect(stored).not.toHaveProperty('profile_img');
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-home.png') });

    await page.locator('summary', { hasText: 'User menu' }).click();
    await page.locator('.user-menu').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${portal.url}/`);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  it('keeps a stored session across a reload, and drops one whose stored user is not what it saved', async () => {
    const page = await freshPage();
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(`${portal.url}/admin`);
    const saved = await page.evaluate(() => localStorage.getItem('user'));
    await page.reload();
    await page.locator('#admin-sidebar').getByRole('link', { name: 'Registration report' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBe(saved);
    const user = JSON.parse(saved!) as Record<string, unknown>;
    const { fullName: _fullName, ...withoutName } = user;
    for (const tampered of [{ ...user, role: 'superadmin' }, { ...user, partnerId: 7 }, withoutName, 'not json']) {
      const text = typeof tampered === 'string' ? tampered : JSON.stringify(tampered);
      await page.evaluate((value) => localStorage.setItem('user', value), text);
      await page.goto(`${portal.url}/`);
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
        null,
        null,
      ]);
      // Signed in again for the next try.
      await signIn(page, ADMIN.username, ADMIN.password);
      await page.waitForURL(`${portal.url}/admin`);
    }
  });

  it('brings the sign-in page with its own words and messages only, in either language, and the rest with the next page', async () => {
    for (const lang of ['en', 'th'] as const) {
      const page = await freshPage(lang);
      const scripts: string[] = [];
      page.on('request', (request) => void scripts.push(new URL(request.url()).pathname));
      await page.goto(`${portal.url}/`, { waitUntil: 'networkidle' });
      await page.getByLabel(/username|ชื่อผู้ใช้/i).fill('nobody-here');
      // No password: the one message shared with the server that this page shows, in its language.
      await page.getByRole('button', { name: /^(log in|เข้าสู่ระบบ)$/i }).click();
      await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain(messages['login.required'][lang]);
      await page.getByRole('alertdialog').getByRole('button').first().click();
      const chunks = (kind: string) => scripts.filter((path) => path.includes(`/${kind}-`));
      expect(chunks('words')).toEqual([expect.stringMatching(new RegExp(`^/assets/words-${lang}-first-`))]);
      expect(chunks('rules')).toEqual([expect.stringMatching(new RegExp(`^/assets/rules-${lang}-first-`))]);
      await signIn(page, ADMIN.username, ADMIN.password);
      await page.waitForURL(`${portal.url}/admin`);
      await page.waitForLoadState('networkidle');
      // The admin's home renders its own words (not a key, not nothing).
      const overview = lang === 'en' ? en['overview.title'] : th['overview.title'];
      await page.getByRole('heading', { name: overview }).waitFor();
      expect(scripts.filter((path) => path.includes('/words-')).at(-1)).toMatch(
        new RegExp(`^/assets/words-${lang}-rest-`),
      );
      expect(scripts.filter((path) => path.includes('/rules-')).at(-1)).toMatch(
        new RegExp(`^/assets/rules-${lang}-rest-`),
      );
      await page.context().close();
    }
  });

  it('signs the browser out when the server ends its session, offering to sign in again', async () => {
    const page = await freshPage();
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(`${portal.url}/admin`);
    // The session ends elsewhere (as after the idle time, or a password change on another device).
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const out = await fetch(`${portal.url}/api/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.status).toBe(200);
    // The admin comes back to the tab later and it loads its data again.
    await page.reload();
    await page.getByRole('link', { name: 'Go to Login' }).waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('switches language and theme, keeps both in storage, and sets the document language', async () => {
    const page = await freshPage();
    await page.goto(`${portal.url}/login`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('button', { name: 'ภาษาไทย' }).click();
    await page.getByRole('heading', { name: 'เข้าสู่ระบบ' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('lang')])).toEqual([
      'th',
      'th',
    ]);
    await page.getByRole('button', { name: 'ธีมมืด' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'เข้าสู่ระบบ' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: join(SCREENSHOTS, 'login-th-dark.png') });
  });

  it('warns a member awaiting approval, in Thai, and keeps them signed out', async () => {
    const person = sampleMember();
    await register(person);
    const page = await freshPage('th');
    await signIn(page, person.username, person.password);
    const dialog = page.getByRole('alertdialog');
    await expect.poll(() => dialog.textContent()).toContain('รอยืนยัน');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('th');
    await page.screenshot({ path: join(SCREENSHOTS, 'login-pending-th.png') });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('refuses a wrong password with the sign-in failed dialog', async () => {
    const page = await freshPage();
    await signIn(page, ADMIN.username, 'not-the-password');
    await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain('Sign-in failed');
    expect(await page.getByRole('alertdialog').textContent()).toContain('Incorrect username or password.');
  });

  it('lands an approved member on /e-market, the course catalogue', async () => {
    const person = sampleMember();
    const id = await register(person);
    const admin = await fetch(`${portal.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { partner } = (await admin.json()) as { partner: { token: string } };
    const approved = await fetch(`${portal.url}/api/admin/registration/${id}/status`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${partner.token}` },
      body: JSON.stringify({ status: 'approved' }),
    });
    expect(approved.status).toBe(200);

    const page = await freshPage();
    await signIn(page, person.username, person.password);
    await page.waitForURL(`${portal.url}/e-market`);
    await page.getByRole('heading', { level: 1, name: 'Course catalogue' }).waitFor();
    await page.goto(`${portal.url}/registrations`);
    expect(await page.getByRole('alert').textContent()).toContain('You do not have the necessary permissions');
    await page.screenshot({ path: join(SCREENSHOTS, 'member-access-denied.png') });
  });
});
