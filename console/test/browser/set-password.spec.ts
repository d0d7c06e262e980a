import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember } from '@portal/platform/testing/accounts';
import { axeViolations } from './axe.ts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  newPage,
  sidewaysOverflow,
  signIn,
  withPortalAndBrowser,
} from './chromium.ts';

/**
 * A person an admin created sets their own password from the e-mailed link (kept in the outbox
 * here, as `npm start` has no mail server): once, in their language, on a phone.
 */
describe.skipIf(chromiumSkipReason())('setting a password from an e-mailed link', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const call = apiCaller(() => portal.url);
  const person = sampleMember({ fullName: 'Lin Link' });
  let link = '';

  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    await call('/api/admin/members', person, adminToken);
    // The admin sends it from the registration report's row.
    const admin = await signIn(browser, portal.url, ADMIN);
    await admin.goto(`${portal.url}/registrations`);
    await admin.getByRole('button', { name: 'Send password link: Lin Link' }).click();
    const dialog = admin.getByRole('alertdialog', {
      name: 'E-mail this person a link to set their password? It works once, for 7 days.',
    });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await admin.getByText('The password link was kept in the outbox (no mail server is set up).').waitFor();
    await admin.context().close();
    const outbox = () =>
      fetch(`${portal.url}/api/admin/emails`, { headers: { authorization: `Bearer ${adminToken}` } })
        .then((response) => response.json() as Promise<{ emails: { message: string }[] }>)
        .then((answer) => answer.emails);
    let emails = await outbox();
    for (let tries = 0; emails.length === 0 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      emails = await outbox();
    }
    link = /https?:\/\/\S+\/set-password\?token=\S+/.exec(emails[0]!.message)![0];
  });

  it('sets the password once, in Thai on a phone, and the person signs in with it', async () => {
    const page = await newPage(browser, { lang: 'th', width: 375, theme: 'dark' });
    await page.goto(link);
    await page.getByRole('heading', { name: 'ตั้งรหัสผ่านของคุณ' }).waitFor();
    // The token leaves the address bar at once.
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel(/^รหัสผ่านใหม่/).fill('a-new-password');
    await page.getByLabel(/^ยืนยันรหัสผ่านใหม่/).fill('a-new-password');
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'set-password-th-375.png'), fullPage: true });
    await page.getByRole('button', { name: 'ตั้งรหัสผ่าน' }).click();
    await page.getByText('ตั้งรหัสผ่านเรียบร้อยแล้ว เข้าสู่ระบบได้เลย').waitFor();
    await page.context().close();

    const signedIn = await signIn(browser, portal.url, { username: person.username, password: 'a-new-password' });
    expect(new URL(signedIn.url()).pathname).toBe('/e-market');
    await signedIn.context().close();

    const used = await newPage(browser, { lang: 'en', width: 1280, theme: 'light' });
    await used.goto(link);
    await used.getByRole('heading', { name: 'Set your password' }).waitFor();
    expect(await axeViolations(used)).toEqual([]);
    await used.getByLabel(/^New password/).fill('another-password');
    await used.getByLabel(/^Confirm new password/).fill('another-password');
    await used.getByRole('button', { name: 'Set password' }).click();
    await used
      .getByRole('alert')
      .getByText(/This password link does not work/)
      .waitFor();
    await used.screenshot({ path: join(SCREENSHOTS, 'set-password-used-en.png'), fullPage: true });
    await used.context().close();
  });
});
