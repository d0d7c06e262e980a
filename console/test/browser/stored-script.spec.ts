import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  registerApproved,
  signIn,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

const hour = 3600_000;

/**
 * What a hostile user would store to run script in an admin's browser: markup in every field a
 * person writes. Each must come back on every screen and in every export as the text that was
 * typed: no element made from it, nothing run (and the Content-Security-Policy would report it:
 * launchChromium fails on any violation).
 */
const SCRIPT = (field: string) => `<img src=x data-xss=${field} onerror=window.__xss=1>${field}`;

describe.skipIf(chromiumSkipReason())('stored script stays text on every screen and in every export', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({ fullName: SCRIPT('partner-name'), companyName: SCRIPT('company-name') });
  const member = sampleMember({ fullName: SCRIPT('member-name') });
  const ids: Record<string, string> = {};
  let adminToken = '';
  let course = '';
  let round = '';

  beforeAll(async () => {
    adminToken = (await call('/api/login', ADMIN)).partner.token;
    Object.assign(ids, await registerApproved(call, adminToken, { partners: [partner], members: [member] }));
    const partnerToken = (await call('/api/login', partner)).partner.token;
    course = (
      await call(
        '/api/admin/createcourse',
        { courseTopic: SCRIPT('topic'), courseDescription: SCRIPT('description'), maxPeople: 0, status: 'public' },
        partnerToken,
      )
    )._id;
    const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
    round = (
      await call<{ round: { _id: string } }>(
        `/api/admin/courses/${course}/rounds`,
        { roundStartTime: iso(-hour), roundEndTime: iso(hour) },
        partnerToken,
      )
    ).round._id;
    const memberToken = (await call('/api/login', member)).partner.token;
    await call(`/api/courses/${course}/enroll`, {}, memberToken);
    await call(
      `/api/admin/updateround/${round}`,
      { userId: member.username, deviceId: SCRIPT('device') },
      partnerToken,
      'PUT',
    );
    await call('/api/contact', {
      name: SCRIPT('contact-name'),
      email: 'visitor@example.com',
      subject: SCRIPT('contact-subject'),
      message: SCRIPT('contact-message'),
    });
    await call(
      '/api/emails',
      { to: 'someone@example.com', subject: SCRIPT('email-subject'), message: SCRIPT('email-message') },
      adminToken,
    );
  });

  /** The fields show as typed, and nothing on the page was made from them. */
  async function showsAsText(page: Page, fields: string[]) {
    for (const field of fields) {
      await page.getByText(SCRIPT(field), { exact: false }).first().waitFor({ timeout: 15_000 });
    }
    expect(await page.locator('[data-xss]').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  }

  it('shows names, topics, descriptions, messages and device ids as text to the admin', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    const screens: [string, string[]][] = [
      ['/registrations', ['member-name', 'partner-name']],
      ['/courses', ['topic']],
      [`/courses/${course}`, ['topic', 'description']],
      [`/courses/${course}/rounds/${round}`, ['member-name']],
      ['/audit', ['device', 'member-name', 'topic']],
      [`/members/${ids[member.username]}`, ['topic']],
      ['/inbox', ['contact-name', 'contact-subject', 'contact-message']],
    ];
    for (const [path, fields] of screens) {
      await page.goto(`${portal.url}${path}`);
      await showsAsText(page, fields);
    }
    await page.getByRole('tab', { name: 'Outbox' }).click();
    await showsAsText(page, ['email-subject', 'email-message']);
    await page.goto(`${portal.url}/audit`);
    await showsAsText(page, ['device']);
    await page.screenshot({ path: join(SCREENSHOTS, 'stored-script-audit.png'), fullPage: true });
  });

  it('shows the course and names as text to members (in Thai, on a phone) and to its partner', async () => {
    const memberPage = await signIn(browser, portal.url, member, { lang: 'th', width: 375, theme: 'dark' });
    await showsAsText(memberPage, ['topic', 'description', 'member-name']);
    await memberPage.screenshot({ path: join(SCREENSHOTS, 'stored-script-member-th.png'), fullPage: true });
    await memberPage.goto(`${portal.url}/notification`);
    await showsAsText(memberPage, ['member-name']);
    const partnerPage = await signIn(browser, portal.url, partner);
    await showsAsText(partnerPage, ['topic', 'partner-name']);
  });

  it('writes every field into the exports as the text that was typed', async () => {
    const download = async (path: string) => {
      const answer = await fetch(`${portal.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
      return parse((await answer.text()).slice(1), { columns: true }) as Record<string, string>[];
    };
    const registrations = await download('/api/admin/registration/export.csv');
    expect(registrations.map((row) => row['Name'])).toEqual(
      expect.arrayContaining([SCRIPT('member-name'), SCRIPT('partner-name')]),
    );
    const scans = await download(`/api/admin/audit/scans.csv?roundId=${round}`);
    expect(scans).toEqual([
      expect.objectContaining({ Device: SCRIPT('device'), Member: SCRIPT('member-name'), Course: SCRIPT('topic') }),
    ]);
  });
});
