import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  sidewaysOverflow,
  signIn,
  registerApproved,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

const minute = 60_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/** Notifications from what really happened, read and marked in both languages; the badge follows live. */
describe.skipIf(chromiumSkipReason())('notifications', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const partner = samplePartner({ fullName: 'Nara Partner' });
  const member = sampleMember({ fullName: 'Lek Member' });
  let adminToken = '';
  let courseId = '';

  const call = apiCaller(() => portal.url);
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
  const badge = (page: Page) => page.getByTestId('notification-badge');

  beforeAll(async () => {
    adminToken = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, adminToken, { partners: [partner], members: [member] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    courseId = (
      await call(
        '/api/admin/createcourse',
        { courseTopic: 'Pottery', courseDescription: 'Clay', maxPeople: 0, status: 'public' },
        partnerToken,
      )
    )._id;
    await call(
      `/api/admin/courses/${courseId}/rounds`,
      { roundStartTime: iso(30 * minute), roundEndTime: iso(90 * minute) },
      partnerToken,
    );
    const memberToken = (await call('/api/login', member)).partner.token;
    await call(`/api/courses/${courseId}/enroll`, {}, memberToken);
  });

  it('shows a partner what happened, marks one and all as read, and the badge follows live', async () => {
    const page = await signIn(browser, portal.url, partner);
    // Approved, a new enrolment, and their round starting within the hour.
    await expect.poll(() => badge(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');
    await badge(page).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const tabs = page.getByRole('tab');
    await expect
      .poll(() => tabs.allInnerTexts())
      .toEqual(['All (3)', 'Unread (3)', 'System Alerts (1)', 'Course Updates (2)']);
    const items = page.getByTestId('notifications').locator('li');
    expect(await items.allInnerTexts()).toEqual([
      expect.stringMatching(/^New enrolment\s+\d+ seconds? ago\s+Lek Member enrolled in “Pottery”\.\s+View course/),
      expect.stringMatching(/^Registration approved[\s\S]*Your account has been approved\. Welcome!\s+Go to my home/),
      expect.stringMatching(
        /^Round starting soon\s+in (29|30) minutes\s+A round of “Pottery” starts in (29|30) minutes\.\s+Open round/,
      ),
    ]);
    await shot(page, 'notifications-en.png');

    await items.first().getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(() => badge(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await tabs.nth(2).click();
    await expect.poll(() => items.allInnerTexts()).toEqual([expect.stringContaining('Registration approved')]);
    await tabs.first().click();

    // Someone else changes the course: the badge and the list follow without a reload.
    await call(
      `/api/admin/updatecourses/${courseId}`,
      { courseTopic: 'Pottery I', courseDescription: 'Clay' },
      adminToken,
      'PUT',
    );
    await expect.poll(() => badge(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');
    await expect.poll(() => items.first().innerText()).toContain('The details of “Pottery I” were updated.');

    await page.getByRole('button', { name: 'Mark All as Read' }).click();
    await expect.poll(() => badge(page).getAttribute('aria-label')).toBe('Notifications, 0 unread');
    await tabs.nth(1).click();
    await page.getByText('You are all caught up.').waitFor();
    await tabs.first().click();
    await items.first().getByRole('link', { name: 'View course' }).click();
    await page.waitForURL(new RegExp(`/courses/${courseId}$`));
    await page.context().close();
  });

  it('tells a member in Thai that their round starts soon, and shows the pass', async () => {
    const page = await signIn(browser, portal.url, member, { lang: 'th', width: 375, theme: 'dark' });
    await expect.poll(() => badge(page).getAttribute('aria-label')).toMatch(/ยังไม่อ่าน [1-9]/);
    await page.goto(`${portal.url}/notification`);
    const soon = page.getByTestId('notifications').locator('li').filter({ hasText: 'รอบเรียนใกล้เริ่ม' });
    await soon.waitFor();
    expect(await soon.innerText()).toMatch(/รอบเรียนของ “Pottery I” จะเริ่มในอีก (29|30) นาที/);
    expect(await page.getByTestId('notifications').innerText()).toContain('การสมัครได้รับการยืนยัน');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    // Each tab's label stays on one line (the tabs wrap whole instead).
    const tabs = await page
      .getByRole('tab')
      .evaluateAll((all) => all.map((tab) => Math.round(tab.getBoundingClientRect().height)));
    expect(tabs).toHaveLength(4);
    expect(new Set(tabs).size, `tab heights ${tabs.join(', ')}`).toBe(1);
    await shot(page, 'notifications-th-375.png');
    await soon.getByRole('link', { name: 'แสดงบัตรเข้าเรียน' }).click();
    await page.waitForURL(/\/e-market#member-pass$/);
    await page.context().close();
  });
});
