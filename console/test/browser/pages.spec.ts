// Over 250 lines: the small pages share one portal, one Chromium and one SMTP sink; each
// case is short.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { phoneCameras } from './phone-cameras.ts';
import { startSmtpSink } from '@portal/deploy/testing/smtp-sink';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  launchChromium,
  registerApproved,
  sidewaysOverflow,
  signIn,
  visit,
  withPortalAndBrowser,
} from './chromium.ts';

/**
 * The small pages as people use them, in both languages: contact (a visitor and a member), send
 * e-mail (to a real local SMTP server), the admins' messages, help, about, the camera (Chromium's
 * fake camera) and the not-found page.
 */
describe.skipIf(chromiumSkipReason())('contact, e-mail, help, about, camera, not found', () => {
  let portal: RunningPortal;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const partner = samplePartner({ fullName: 'Paula Partner' });
  const member = sampleMember({ fullName: 'Mali Member' });

  const call = apiCaller(() => portal.url);
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });

  withPortalAndBrowser((started) => ({ portal, browser } = started), {
    env: async () => {
      smtp = await startSmtpSink();
      return { SMTP_URL: smtp.url, MAIL_FROM: 'Course Portal <no-reply@course-portal.test>' };
    },
  });
  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, adminToken, { partners: [partner], members: [member] });
  });
  afterAll(() => smtp?.close());

  it('takes a visitor’s message in Thai, field by field, and a member’s in English', async () => {
    const page = await visit(browser, `${portal.url}/contact`, { lang: 'th' });
    await page.getByRole('heading', { name: 'ติดต่อเรา' }).waitFor();
    await page.getByRole('button', { name: 'ส่งข้อความ' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: 'การส่งข้อความล้มเหลว!' }).waitFor();
    expect(await dialog.innerText()).toContain('ข้อมูลไม่ครบถ้วนหรือไม่ถูกต้อง');
    await dialog.getByRole('button').click();
    for (const text of ['ชื่อผู้ติดต่อจำเป็นต้องกรอก', 'อีเมลจำเป็นต้องกรอก', 'ข้อความจำเป็นต้องกรอก']) {
      await page.getByText(text).waitFor();
    }
    await page.getByLabel('ชื่อ').fill('สมหญิง ใจดี');
    await page.getByLabel('อีเมล').fill('somying@');
    await page.getByLabel('หัวข้อ').fill('ก'.repeat(101));
    await page.getByLabel('ข้อความ').fill('สั้นไป');
    await page.getByRole('button', { name: 'ส่งข้อความ' }).click();
    await dialog.getByRole('button').click();
    for (const text of ['รูปแบบอีเมลไม่ถูกต้อง', 'หัวข้อต้องไม่เกิน 100 ตัวอักษร', 'ข้อความต้องมีอย่างน้อย 10 ตัวอักษร']) {
      await page.getByText(text).waitFor();
    }
    await shot(page, 'contact-errors-th.png');
    await page.getByLabel('อีเมล').fill('somying@example.test');
    await page.getByLabel('หัวข้อ').fill('ตารางเรียน');
    await page.getByLabel('ข้อความ').fill('อยากทราบตารางเรียนเดือนหน้าค่ะ');
    await page.getByRole('button', { name: 'ส่งข้อความ' }).click();
    await dialog.getByRole('heading', { name: 'ส่งข้อความเรียบร้อยแล้ว!' }).waitFor();
    await dialog.getByRole('button').click();
    expect(await page.getByLabel('ข้อความ').inputValue()).toBe('');
    await page.context().close();

    const signedIn = await signIn(browser, portal.url, member);
    await signedIn.goto(`${portal.url}/contact`);
    expect(await signedIn.getByLabel('Name').inputValue()).toBe('Mali Member');
    await signedIn.getByLabel('E-mail').fill('mali@example.test');
    await signedIn.getByLabel('Message').fill('Is there parking near the hall?');
    await signedIn.getByRole('button', { name: 'Send Message' }).click();
    await signedIn.getByRole('alertdialog').getByRole('heading', { name: 'Your message has been sent!' }).waitFor();
    await signedIn.getByRole('alertdialog').getByRole('button').click();
    await shot(signedIn, 'contact-en.png');
    await signedIn.context().close();
  });

  it('sends an e-mail through the SMTP server, and shows admins the messages and the outbox', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    await page.locator('#admin-sidebar').getByRole('link', { name: 'Send e-mail' }).click();
    await page.getByRole('heading', { name: 'Send e-mail' }).waitFor();
    expect(await page.getByTestId('sender-name').innerText()).toBe('Administrator');
    await page.getByRole('button', { name: 'Send E-mail' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('heading', { name: 'Information incomplete!' }).waitFor();
    expect(await dialog.innerText()).toContain('Please fill in all required fields.');
    await dialog.getByRole('button').click();
    await page.getByLabel('To').fill('learner@');
    await page.getByLabel('Subject').fill('Monday’s round');
    await page.getByLabel('Message').fill('See you in room 3 at 9.');
    await page.getByRole('button', { name: 'Send E-mail' }).click();
    await dialog.getByRole('heading', { name: 'The e-mail address is not valid!' }).waitFor();
    await dialog.getByRole('button').click();
    expect(smtp.received).toHaveLength(0);
    await page.getByLabel('To').fill('learner@example.test');
    await page.getByRole('button', { name: 'Send E-mail' }).click();
    await dialog.getByRole('heading', { name: 'The e-mail has been sent.' }).waitFor();
    await shot(page, 'sendemail-sent-en.png');
    await dialog.getByRole('button').click();
    expect(smtp.received.map((mail) => [mail.subject, mail.text?.trim()])).toEqual([
      ['Monday’s round', 'See you in room 3 at 9.'],
    ]);

    await page.locator('#admin-sidebar').getByRole('link', { name: 'Messages' }).click();
    const messages = page.getByTestId('contact-messages').locator('li');
    await expect.poll(() => messages.count()).toBe(2);
    expect(await messages.first().innerText()).toContain('Is there parking near the hall?');
    expect(await messages.nth(1).innerText()).toMatch(/ตารางเรียน[\s\S]*สมหญิง ใจดี[\s\S]*somying@example.test/);
    await shot(page, 'inbox-en.png');
    await page.getByRole('tab', { name: 'Outbox' }).click();
    const sent = page.getByTestId('outbox').locator('li');
    await expect.poll(() => sent.count()).toBe(1);
    expect(await sent.innerText()).toMatch(/Monday’s round[\s\S]*Sent[\s\S]*learner@example.test/);
    await shot(page, 'outbox-en.png');
    await page.context().close();

    const thai = await signIn(browser, portal.url, partner, { lang: 'th', width: 375, theme: 'dark' });
    await thai.goto(`${portal.url}/sendemail`);
    await thai.getByRole('heading', { name: 'ส่งอีเมล' }).waitFor();
    await thai.getByLabel('ถึง').fill('nobody');
    await thai.getByRole('button', { name: 'ส่งอีเมล' }).click();
    await thai.getByRole('alertdialog').getByRole('heading', { name: 'ข้อมูลไม่ครบถ้วน!' }).waitFor();
    await thai.getByRole('alertdialog').getByRole('button').click();
    await thai.getByText('รูปแบบอีเมลไม่ถูกต้อง!').waitFor();
    expect(await sidewaysOverflow(thai)).toBe(0);
    await shot(thai, 'sendemail-th-375.png');
    await thai.goto(`${portal.url}/inbox`);
    await thai.getByRole('heading', { name: 'ไม่มีสิทธิ์เข้าถึง' }).waitFor();
    await thai.context().close();
  });

  it('answers questions in either language, one at a time, and points to support', async () => {
    const page = await visit(browser, `${portal.url}/helpcenter`, { lang: 'th' });
    await page.getByRole('heading', { name: 'ศูนย์ช่วยเหลือ' }).waitFor();
    const questions = page.locator('.faq-item button');
    expect(await questions.count()).toBe(7);
    await questions.first().click();
    await questions.nth(2).click();
    expect(await page.locator('.faq-item button[aria-expanded=true]').allInnerTexts()).toEqual([
      'ฉันจะรีเซ็ตรหัสผ่านได้อย่างไร',
    ]);
    // An English word finds the Thai answer.
    await page.getByRole('searchbox').fill('password');
    await expect.poll(() => questions.allInnerTexts()).toEqual(['ฉันจะรีเซ็ตรหัสผ่านได้อย่างไร']);
    await page.getByRole('searchbox').fill('ไม่มีคำนี้แน่นอน');
    await page.getByText('ไม่พบผลลัพธ์สำหรับ "ไม่มีคำนี้แน่นอน"').waitFor();
    await shot(page, 'helpcenter-noresults-th.png');
    await page.getByRole('searchbox').fill('');
    await shot(page, 'helpcenter-th.png');
    await page.getByRole('link', { name: 'ติดต่อฝ่ายสนับสนุน' }).click();
    await page.waitForURL(/\/contact$/);
    await page.context().close();

    const english = await signIn(browser, portal.url, ADMIN);
    await english.locator('#admin-sidebar').getByRole('link', { name: 'Help center' }).click();
    await english.getByRole('searchbox').fill('โทรศัพท์');
    await expect
      .poll(() => english.locator('.faq-item button').allInnerTexts())
      .toEqual(['Can I use the portal on my phone?']);
    await english.locator('.faq-item button').click();
    await english.getByText('instructors scan it with the phone’s camera').waitFor();
    await shot(english, 'helpcenter-en.png');
    await english.context().close();
  });

  it('tells who we are, inside each role’s layout', async () => {
    const admin = await signIn(browser, portal.url, ADMIN);
    await admin.goto(`${portal.url}/about`);
    await admin.getByRole('heading', { name: 'About Us' }).waitFor();
    expect(await admin.locator('#values-title + ul h3').allInnerTexts()).toEqual([
      'Integrity',
      'Innovation',
      'Collaboration',
      'Excellence',
    ]);
    expect(await admin.locator('#team-title + ul li').count()).toBe(4);
    expect(await admin.locator('#admin-sidebar').count()).toBe(1);
    await shot(admin, 'about-en.png');
    await admin.context().close();

    const thai = await signIn(browser, portal.url, member, { lang: 'th' });
    await thai.goto(`${portal.url}/about`);
    await thai.getByRole('heading', { name: 'เกี่ยวกับเรา' }).waitFor();
    expect(await thai.locator('.partner-aside').count()).toBe(1);
    await thai.getByRole('link', { name: 'ติดต่อเรา' }).last().click();
    await thai.waitForURL(/\/contact$/);
    await thai.goBack();
    await shot(thai, 'about-th.png');
    await thai.context().close();
  });

  it('starts the camera, captures with a flash, retakes, downloads a PNG and stops, also when leaving', async () => {
    const withCamera = await launchChromium(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
    try {
      const page = await signIn(withCamera, portal.url, partner);
      await page.context().grantPermissions(['camera'], { origin: portal.url });
      await page.goto(`${portal.url}/camera`);
      await page.getByRole('button', { name: 'Start Camera' }).click();
      await page.getByText('Camera started.').waitFor();
      const size = await page.evaluate(() => {
        const video = document.querySelector('video')!;
        const track = (video.srcObject as MediaStream).getVideoTracks()[0]!;
        return { facingMode: track.getConstraints().facingMode, width: track.getConstraints().width };
      });
      expect(size).toEqual({ facingMode: 'user', width: 1280 }); // Chromium reports the ideal as the value
      // Success messages go after 3 seconds.
      await page.getByText('Camera started.').waitFor({ state: 'detached', timeout: 5000 });

      await page.getByRole('button', { name: 'Capture Photo' }).click();
      await page.getByTestId('camera-flash').waitFor();
      await page.getByTestId('camera-flash').waitFor({ state: 'detached', timeout: 2000 });
      await page.getByRole('img', { name: 'The captured photo' }).waitFor();
      await shot(page, 'camera-captured-en.png');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^camera-photo-\d{4}-\d\d-\d\dT[\d-]+Z\.png$/);
      const file = readFileSync((await download.path())!);
      expect(file.subarray(1, 4).toString()).toBe('PNG');

      await page.getByRole('button', { name: 'Retake' }).click();
      await page.getByRole('button', { name: 'Capture Photo' }).waitFor();
      await page.getByRole('button', { name: 'Stop Camera' }).click();
      await page.getByRole('button', { name: 'Start Camera' }).waitFor();
      await page.getByText('Camera stopped.').waitFor();

      // Leaving the page releases the camera too.
      await page.getByRole('button', { name: 'Start Camera' }).click();
      await page.getByRole('button', { name: 'Capture Photo' }).waitFor();
      await page.evaluate(() => {
        (window as unknown as { held: MediaStream }).held = document.querySelector('video')!.srcObject as MediaStream;
      });
      await page.getByRole('link', { name: 'Course Portal' }).first().click();
      await page.waitForURL(/\/partner$/);
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { held: MediaStream }).held
              .getTracks()
              .every((track) => track.readyState === 'ended'),
          ),
        )
        .toBe(true);

      // Leaving while the camera is still opening: it is closed as soon as it opens.
      await page.context().addInitScript(phoneCameras, { oneAtATime: true, openingMs: 1_000 });
      await page.goto(`${portal.url}/camera`);
      await page.getByRole('button', { name: 'Start Camera' }).click();
      await page.getByText('Asking for the camera...').waitFor();
      await page.getByRole('link', { name: 'Course Portal' }).first().click();
      await page.waitForURL(/\/partner$/);
      await page.waitForTimeout(2_000);
      expect(await page.evaluate(() => (window as unknown as { openCameras: () => number }).openCameras())).toBe(0);
      await page.context().close();
    } finally {
      await withCamera.close();
    }

    // No camera at all: says so, and stays (found: it asked for a permission that was never the problem).
    const page = await signIn(browser, portal.url, partner, { lang: 'th' });
    await page.goto(`${portal.url}/camera`);
    await page.getByRole('button', { name: 'เปิดกล้อง' }).click();
    await page.getByRole('alert').getByText('ไม่พบกล้องในอุปกรณ์นี้').waitFor();
    await page.waitForTimeout(3500);
    expect(await page.getByRole('alert').count()).toBe(1);
    await shot(page, 'camera-missing-th.png');
    await page.context().close();
  });

  it('says a page is not there, and takes each role back to its own home', async () => {
    const admin = await signIn(browser, portal.url, ADMIN);
    await admin.goto(`${portal.url}/no/such/page`);
    await admin.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
    expect(await admin.locator('#admin-sidebar').count()).toBe(1);
    await shot(admin, 'not-found-en.png');
    await admin.getByRole('link', { name: 'Go Back to Homepage' }).click();
    await admin.waitForURL(/\/admin$/);
    await admin.context().close();

    const thai = await signIn(browser, portal.url, partner, { lang: 'th' });
    await thai.goto(`${portal.url}/nowhere`);
    await thai.getByRole('heading', { name: 'ขออภัย ไม่พบหน้าที่คุณต้องการ' }).waitFor();
    expect(await thai.locator('.partner-aside').count()).toBe(1);
    await shot(thai, 'not-found-th.png');
    await thai.getByRole('link', { name: 'กลับสู่หน้าหลัก' }).click();
    await thai.waitForURL(/\/partner$/);
    await thai.context().close();
  });
});
