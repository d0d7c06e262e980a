import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { SCREENSHOTS, chromiumSkipReason, ADMIN, withPortalAndBrowser } from './chromium.ts';

describe.skipIf(chromiumSkipReason())('the registration report', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const tag = 'Report';
  const members = Array.from({ length: 11 }, (_, i) =>
    sampleMember({ fullName: `${tag} Person ${String(i).padStart(2, '0')}` }),
  );
  const partner = samplePartner({ fullName: `${tag} Partner`, companyName: 'Siam Training Co' });

  beforeAll(async () => {
    for (const person of members) await post('/api/members/register', person);
    await post('/api/partners/register', partner);
  });

  const post = (path: string, body: unknown) =>
    fetch(`${portal.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json());

  async function asAdmin(lang: 'en' | 'th'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.addInitScript((l) => localStorage.setItem('lang', l), lang);
    const page = await context.newPage();
    await page.goto(`${portal.url}/login`);
    await page.locator('input[name=username]').fill(ADMIN.username);
    await page.locator('input[name=password]').fill(ADMIN.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL(/\/admin$/);
    return page;
  }
  const rows = (page: Page) => page.locator('tbody tr');
  const names = (page: Page) => page.locator('tbody tr td:nth-child(2)').allTextContents();

  it('searches, filters, sorts and pages; approves, views, erases with confirmation; exports the CSV', async () => {
    const page = await asAdmin('en');
    await page.locator('#admin-sidebar').getByRole('link', { name: 'Registration report' }).click();
    await page.getByRole('heading', { name: 'Registration report' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(await page.getByText('Page 1 of 2').count()).toBe(1);
    expect(await page.locator('th[aria-sort]').textContent()).toContain('Registration date');

    await page.getByRole('searchbox').fill('person 0');
    await page.getByRole('searchbox').press('Enter');
    await expect.poll(() => rows(page).count()).toBe(10);
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect.poll(() => names(page)).toEqual(members.slice(0, 10).map((m) => m.fullName));
    expect(await page.locator('th[aria-sort]').getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect.poll(async () => (await names(page))[0]).toBe(members[9]!.fullName);

    // Approve the first one after confirming.
    const first = members[9]!.fullName;
    await page.getByRole('button', { name: `Approve: ${first}` }).click();
    await page.getByRole('alertdialog').getByText('Approve this registration?').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Registration status updated.').waitFor();
    await page.getByLabel('Status').selectOption('approved');
    await expect.poll(() => names(page)).toEqual([first]);
    expect(await page.getByText('Page 1 of 1').count()).toBe(1);

    // Export only the filtered rows; while it runs (held back a moment here) the button is busy.
    await page.route('**/api/admin/registration/export.csv*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Export CSV' }).click();
        expect(await page.getByRole('button', { name: 'Exporting...' }).isDisabled()).toBe(true);
      })(),
    ]);
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    expect(download.suggestedFilename()).toBe('registrations_report.csv');
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    const lines = csv.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(first);
    expect(lines[1]).toContain('APPROVED');
    // Dates in the browser's own zone, as the screen shows them, in a form spreadsheets read as dates.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const listedAt = await page.evaluate(async () => {
      const token = localStorage.getItem('token');
      const answer = await fetch('/api/admin/registration', { headers: { authorization: `Bearer ${token}` } });
      return ((await answer.json()) as { members: { fullName: string; createdAt: string }[] }).members;
    });
    const created = listedAt.find((m) => m.fullName === first)!.createdAt;
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' });
    expect(lines[1]).toContain(local.format(new Date(created)));
    await page.getByText('Your report is being downloaded.').waitFor();

    // The partner, with the company, in the details; then erased.
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('searchbox').fill('partner');
    await page.getByRole('searchbox').press('Enter');
    await expect.poll(() => names(page)).toEqual([partner.fullName]);
    expect(await rows(page).first().textContent()).toContain('Partner · Siam Training Co');
    await page.getByRole('button', { name: `View: ${partner.fullName}` }).click();
    expect(await page.getByRole('dialog').textContent()).toContain(partner.companyTaxId);
    await page.screenshot({ path: join(SCREENSHOTS, 'registrations-view-en.png') });
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: `Erase data: ${partner.fullName}` }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Personal data erased.').waitFor();
    await page.getByText('No registration data found. Adjust your search or filters.').waitFor();
  });

  it('reads in Thai', async () => {
    const page = await asAdmin('th');
    await page.goto(`${portal.url}/registrations`);
    await page.getByRole('heading', { name: 'รายงานการสมัครสมาชิก' }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(10);
    expect(await page.getByText('หน้า 1 จาก 2').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'registrations-th.png'), fullPage: true });
  });
});
