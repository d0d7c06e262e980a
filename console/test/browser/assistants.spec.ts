import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  registerApproved,
  roundStartingNow,
  sidewaysOverflow,
  signIn,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

/**
 * Scan-only assistants in the console (issue 18, item 7): the course's creator adds a member by
 * username on the course page (an unknown name answered in the field); the member finds the
 * round on their phone's home, opens it and scans, with nothing of the creator's tools.
 */
describe.skipIf(chromiumSkipReason())('scanning assistants in the console', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({ fullName: 'Oda Owner' });
  const asa = sampleMember({ fullName: 'Asa Assistant' });
  const ann = sampleMember({ fullName: 'Ann Arriving' });
  let courseId = '';
  let roundUrl = '';

  beforeAll(async () => {
    const admin = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, admin, { partners: [partner], members: [asa, ann] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    ({ courseId, roundUrl } = await roundStartingNow(call, partnerToken, [ann], 'Assisted Course'));
  }, 180_000);

  it('the creator adds an assistant by username on the course page', async () => {
    const page = await signIn(browser, portal.url, partner, { width: 1280, lang: 'en', theme: 'light' });
    await page.goto(`${portal.url}/courses/${courseId}`);
    const card = page.locator('.course-assistants');
    await card.getByText('No scanning assistants yet.').waitFor();
    const field = card.getByLabel('Username of an approved member or partner');
    await field.fill('nobody-by-this-name');
    await card.getByRole('button', { name: 'Add assistant' }).click();
    await card.getByRole('alert').getByText('No user has this username.').waitFor();
    await field.fill(asa.username);
    await card.getByRole('button', { name: 'Add assistant' }).click();
    await card.getByTestId('assistant-list').getByText('Asa Assistant').waitFor();
    expect(await field.inputValue()).toBe('');
    await card.screenshot({ path: join(SCREENSHOTS, 'course-assistants-en.png') });
    await page.context().close();
  });

  it('the assistant opens the round from their phone’s home and scans, with no void or course tools', async () => {
    const page = await signIn(browser, portal.url, asa, { width: 375, lang: 'th', theme: 'dark' });
    const rounds = page.getByTestId('assisting-rounds');
    await rounds.getByText('Assisted Course').waitFor();
    await page.getByRole('heading', { name: 'รอบที่คุณช่วยสแกน' }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'assistant-home-th-375.png') });
    await rounds.getByRole('link', { name: 'เริ่มสแกน' }).click();
    await page.waitForURL(`**${roundUrl}`);
    await page.getByRole('heading', { name: 'รายละเอียดรอบที่ 1' }).waitFor();
    await page.getByLabel(/รหัสผู้ใช้/).fill(ann.username);
    await page.getByRole('button', { name: 'บันทึกการเข้าเรียน' }).click();
    await page.getByTestId('scan-outcome').getByText('✓ Ann Arriving').waitFor();
    await expect.poll(() => page.locator('.scanned-list tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'ยกเลิกการสแกน' }).count()).toBe(0);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'assistant-round-th-375.png'), fullPage: true });

    // The course's own page is the creator's: the assistant is not shown it.
    await page.goto(`${portal.url}/courses/${courseId}`);
    await page.getByRole('heading', { name: 'ไม่มีสิทธิ์เข้าถึง' }).waitFor();
    await page.context().close();
  });
});
