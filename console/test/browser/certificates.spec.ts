import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCertificatePdf } from '@portal/deploy/testing/certificate-reader';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { axeViolations } from './axe.ts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  registerApproved,
  sidewaysOverflow,
  signIn,
  visit,
  withPortalAndBrowser,
} from './chromium.ts';

const hour = 3_600_000;

/**
 * A certificate's life as people see it (issue 23): the portal issues it on its own once the last
 * round has ended; the member downloads the PDF from their dashboard (read here with pdf.js, its
 * QR code read off the page); a stranger opens the page the QR code names; an admin revokes it,
 * and the stranger's page says so.
 */
describe.skipIf(chromiumSkipReason())('certificates of completion', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), {
    env: { CERTIFICATE_SWEEP_SECONDS: '1' },
  });
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({ fullName: 'Krit Teacher', companyName: 'ครัวครูกฤษณ์ Kitchen' });
  const member = sampleMember({ fullName: 'มาลี ใจดี' });
  const topic = 'อาหารไทย Thai cooking';
  let courseId = '';
  let verifyUrl = '';

  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    const ids = await registerApproved(call, adminToken, { partners: [partner], members: [member] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    courseId = (
      await call(
        '/api/admin/createcourse',
        { courseTopic: topic, courseDescription: 'Curries', status: 'public', maxPeople: 0 },
        partnerToken,
      )
    )._id;
    const endsAt = Date.now() + 4000;
    const { round } = await call<{ round: { _id: string } }>(
      `/api/admin/courses/${courseId}/rounds`,
      { roundStartTime: new Date(endsAt - 2 * hour).toISOString(), roundEndTime: new Date(endsAt).toISOString() },
      partnerToken,
    );
    await call(`/api/courses/${courseId}/enroll`, {}, (await call('/api/login', member)).partner.token);
    const scan = await call<{ outcome: string }>(
      `/api/admin/updateround/${round._id}`,
      { userId: ids[member.username] },
      partnerToken,
      'PUT',
    );
    expect(scan.outcome).toBe('accepted');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now() + 200)));
  });

  const certificates = (page: Page) => page.getByTestId('my-certificates');

  it('is issued on its own after the last round, and the member downloads a PDF that says so and points to its page', async () => {
    const page = await signIn(browser, portal.url, member, { lang: 'th', width: 375, theme: 'dark' });
    const card = certificates(page);
    await card.getByRole('heading', { name: 'ประกาศนียบัตรของฉัน' }).waitFor();
    // The sweep looks every second; the dashboard shows what was issued when it is opened.
    await expect
      .poll(
        async () => {
          await page.reload();
          await card.getByRole('heading', { name: 'ประกาศนียบัตรของฉัน' }).waitFor();
          return card.getByRole('button', { name: 'ดาวน์โหลด PDF' }).count();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
    await card.getByText('เข้าร่วม 1 จาก 1 รอบ รวม 2 ชั่วโมง', { exact: false }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card.getByRole('button', { name: 'ดาวน์โหลด PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^certificate-[\w-]{22}\.pdf$/);
    const pdf = await readCertificatePdf(readFileSync((await download.path())!));
    expect(pdf.text).toContain('มาลี ใจดี');
    expect(pdf.text).toContain(topic);
    expect(pdf.text).toContain('ครัวครูกฤษณ์ Kitchen');
    expect(pdf.text).toContain(`พ.ศ. ${new Date().getFullYear() + 543}`);
    expect(pdf.text).toContain('Certificate of Completion');
    expect(pdf.qr).toMatch(new RegExp(`^${portal.url}/verify/[\\w-]{22}$`));
    verifyUrl = pdf.qr!;

    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SCREENSHOTS, 'certificates-member-th-375.png') });
    await page.context().close();
  });

  it('shows a stranger that it is valid, then revoked once an admin revokes it with a reason', async () => {
    expect(verifyUrl).not.toBe('');
    const stranger = await visit(browser, verifyUrl);
    await stranger.getByRole('heading', { name: 'Certificate verification' }).waitFor();
    await expect.poll(() => stranger.getByTestId('verify-status').textContent()).toBe('This certificate is valid.');
    await stranger.getByText('มาลี ใจดี').waitFor();
    await stranger.getByText('ครัวครูกฤษณ์ Kitchen').waitFor();
    await stranger.getByText('1 of 1 round, 2 hours').waitFor();
    expect(await axeViolations(stranger)).toEqual([]);
    await stranger.screenshot({ path: join(SCREENSHOTS, 'certificate-verify-en.png') });

    const admin = await signIn(browser, portal.url, ADMIN);
    await admin.goto(`${portal.url}/courses/${courseId}`);
    const section = admin.locator('.course-certificates');
    await section.getByRole('heading', { name: 'Certificates of completion' }).waitFor();
    await section.getByRole('cell', { name: 'มาลี ใจดี', exact: true }).waitFor();
    await section.getByRole('button', { name: 'Revoke: มาลี ใจดี' }).click();
    const dialog = admin.getByRole('alertdialog', { name: 'Revoke มาลี ใจดี’s certificate?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await dialog.getByText('Please give the reason for revoking.').waitFor();
    await dialog
      .getByLabel('Reason (shown on the certificate’s public page)')
      .fill('Attendance was recorded by mistake');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await admin.getByText('The certificate is revoked.').waitFor();
    await section.getByText('Revoked', { exact: true }).waitFor();
    expect(await axeViolations(admin)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: join(SCREENSHOTS, 'certificates-course-en.png') });
    await admin.context().close();

    await stranger.reload();
    await expect
      .poll(() => stranger.getByTestId('verify-status').textContent())
      .toBe('This certificate was revoked and is no longer valid.');
    await stranger.getByText('Attendance was recorded by mistake').waitFor();
    await stranger.context().close();

    const thai = await visit(browser, verifyUrl, { lang: 'th', width: 375, theme: 'dark' });
    await expect
      .poll(() => thai.getByTestId('verify-status').textContent())
      .toBe('ประกาศนียบัตรนี้ถูกเพิกถอนแล้ว ใช้ไม่ได้อีกต่อไป');
    expect(await sidewaysOverflow(thai)).toBe(0);
    expect(await axeViolations(thai)).toEqual([]);
    await thai.screenshot({ path: join(SCREENSHOTS, 'certificate-verify-th-375.png') });
    await thai.context().close();
  });

  it('lets the course’s partner set the rule, refusing one that is not a percent, in their language', async () => {
    const page = await signIn(browser, portal.url, partner);
    await page.goto(`${portal.url}/courses/${courseId}`);
    const section = page.locator('.course-certificates');
    const rule = section.getByLabel('Attendance needed (% of rounds held)');
    await expect.poll(() => rule.inputValue()).toBe('80');
    await rule.fill('120');
    await section.getByRole('button', { name: 'Save the rule' }).click();
    await section.getByText('The rule must be a whole number from 1 to 100 percent.').waitFor();
    await rule.fill('90');
    await section.getByRole('button', { name: 'Save the rule' }).click();
    await page.getByText('The completion rule is saved.').waitFor();
    await section.getByRole('button', { name: 'Issue certificates now' }).click();
    await page.getByText('0 certificates issued.').waitFor();
    // No revoke button for a partner: only admins revoke.
    expect(await section.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    await page.context().close();
  });
});
