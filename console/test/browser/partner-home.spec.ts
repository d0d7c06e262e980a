import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  signIn,
  sidewaysOverflow,
  registerApproved,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * Where a partner lands after signing in: empty until they create a course, then their figures,
 * the round open now with a way straight to its scanner, and their courses; in both languages.
 */
describe.skipIf(chromiumSkipReason())('the partner home (/partner)', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({ fullName: 'Pim Partner' });
  const member = sampleMember({ fullName: 'Mek Member' });
  let adminToken = '';
  let memberId = '';

  beforeAll(async () => {
    adminToken = (await call('/api/login', ADMIN)).partner.token;
    const ids = await registerApproved(call, adminToken, { partners: [partner], members: [member] });
    memberId = ids[member.username]!;
  });

  it('offers a new partner to create their first course', async () => {
    const page = await signIn(browser, portal.url, partner);
    expect(new URL(page.url()).pathname).toBe('/partner');
    await page.getByRole('heading', { level: 1, name: 'Welcome, Pim Partner' }).waitFor();
    await page.getByTestId('partner-no-courses').getByText('You have not created a course yet.').waitFor();
    expect(await page.getByTestId('partner-figures').innerText()).toMatch(
      /My Courses\s+0\s+Members Enrolled\s+0\s+Rounds This Week\s+0\s+Attendance Rate\s+—/,
    );
    await page.getByText('No round of your courses is open now or starts in the next seven days.').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'partner-home-empty-en.png'), fullPage: true });
    await page.getByTestId('partner-no-courses').getByRole('link', { name: 'Create course' }).click();
    await page.waitForURL(/\/createcourse$/);
    await page.context().close();
  });

  it('shows the round open now, with the scanner one click away, and the courses with their counts', async () => {
    const token = (await call('/api/login', partner)).partner.token;
    const course = (
      await call(
        '/api/admin/createcourse',
        { courseTopic: 'Evening Pilates', courseDescription: 'Core work', status: 'public', maxPeople: 0 },
        token,
      )
    )._id;
    const rounds: string[] = [];
    for (const [start, end] of [
      [-0.5 * hour, 1.5 * hour],
      [26 * hour, 27 * hour],
    ] as const) {
      const answer = await call<{ round: { _id: string } }>(
        `/api/admin/courses/${course}/rounds`,
        { roundStartTime: iso(start), roundEndTime: iso(end) },
        token,
      );
      rounds.push(answer.round._id);
    }
    const memberToken = (await call('/api/login', member)).partner.token;
    await call(`/api/courses/${course}/enroll`, {}, memberToken);
    await call(`/api/admin/updateround/${rounds[0]}`, { userId: memberId }, token, 'PUT');

    const page = await signIn(browser, portal.url, partner);
    const list = page.getByTestId('partner-rounds');
    await list.waitFor();
    const items = list.locator('li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(0).innerText()).toMatch(
      /Evening Pilates · Round 1\s*Open now[\s\S]*1 of 1 enrolled scanned/,
    );
    expect(await items.nth(1).innerText()).toMatch(/Round 2[\s\S]*0 of 1 enrolled scanned/);
    expect(await page.getByTestId('partner-figures').innerText()).toMatch(
      /My Courses\s+1\s+Members Enrolled\s+1\s+Rounds This Week\s+2\s+Attendance Rate\s+—/,
    );
    expect(await page.getByTestId('partner-courses').locator('tbody tr').innerText()).toMatch(
      /Evening Pilates\tPublic\t1\t2\t1\t0/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'partner-home-en.png'), fullPage: true });
    await items.nth(0).getByRole('link', { name: 'Start scanning' }).click();
    await page.getByRole('heading', { name: 'Round 1 Details' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/courses/${course}/rounds/${rounds[0]}`);
    await page.context().close();

    const thai = await signIn(browser, portal.url, partner, { lang: 'th', width: 375, theme: 'dark' });
    await thai.getByRole('heading', { level: 1, name: 'ยินดีต้อนรับ Pim Partner' }).waitFor();
    await thai.getByTestId('partner-rounds').getByText('เปิดอยู่ตอนนี้').waitFor();
    await thai.getByRole('link', { name: 'เริ่มสแกน' }).waitFor();
    expect(await sidewaysOverflow(thai)).toBeLessThanOrEqual(0);
    await thai.screenshot({ path: join(SCREENSHOTS, 'partner-home-th-375.png'), fullPage: true });
    await thai.context().close();
  });

  it('shows partners and admins the catalogue as members see it, with nothing the server would refuse', async () => {
    for (const person of [partner, ADMIN]) {
      const page = await signIn(browser, portal.url, person);
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${portal.url}/e-market`);
      await page.getByRole('heading', { level: 1, name: 'Course catalogue' }).waitFor();
      await page
        .getByText(
          'Members enrol here. You are signed in as staff, so you see the catalogue as members do, without enrolling.',
        )
        .waitFor();
      await page.locator('.course-card').first().waitFor();
      expect(await page.getByRole('button', { name: 'Enrol' }).count()).toBe(0);
      expect(await page.getByRole('tab').count()).toBe(0);
      expect(await page.getByText('Your pass could not be loaded').count()).toBe(0);
      expect(refused).toEqual([]);
      await page.context().close();
    }
  });

  it('is the partners’ home only: a member is told they may not open it', async () => {
    const page = await signIn(browser, portal.url, member);
    await page.goto(`${portal.url}/partner`);
    await page
      .getByRole('alert')
      .getByText(/You do not have the necessary permissions/)
      .waitFor();
    expect(await page.getByTestId('partner-figures').count()).toBe(0);
    await page.context().close();
  });
});
