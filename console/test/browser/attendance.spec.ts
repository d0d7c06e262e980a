// Over 250 lines: the live room (open a round, scan, roster, void, walk-in) in one
// Chromium session on one portal: split, each part would start both again.
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { PASS_WINDOW_MS } from '@portal/contracts/attendance/pass-code';
import {
  CHROMIUM,
  SCREENSHOTS,
  chromiumSkipReason,
  sidewaysOverflow,
  signIn as signInAt,
  waitForOutcome,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';
import { passVideo } from './fake-camera.ts';

const hour = 3600_000;
type Person = { username: string; password: string };

describe.skipIf(chromiumSkipReason())(
  'live attendance: the member’s pass, the camera, typing, offline and live counts',
  () => {
    let portal: RunningPortal;
    let browser: Browser;
    withPortalAndBrowser((started) => ({ portal, browser } = started));
    const partner = samplePartner({ fullName: 'Scanning Partner' });
    const ann = sampleMember({ fullName: 'Ann Camera' });
    const ben = sampleMember({ fullName: 'Ben Typed' });
    const cat = sampleMember({ fullName: 'Cat Elsewhere' });
    let roundUrl = '';
    let partnerToken = '';
    let roundId = '';

    const call = (path: string, body: unknown, token?: string, method = 'POST') =>
      fetch(`${portal.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(
        (response) => response.json() as Promise<{ _id: string; partner: { token: string }; round: { _id: string } }>,
      );

    beforeAll(async () => {
      const admin = (await call('/api/login', ADMIN)).partner;
      for (const [path, person] of [
        ['/api/partners/register', partner],
        ['/api/members/register', ann],
        ['/api/members/register', ben],
        ['/api/members/register', cat],
      ] as const) {
        const { _id } = await call(path, person);
        await call(`/api/admin/registration/${_id}/status`, { status: 'approved' }, admin.token, 'PUT');
      }
      partnerToken = (await call('/api/login', partner)).partner.token;
      const course = (
        await call(
          '/api/admin/createcourse',
          { courseTopic: 'Morning Yoga', courseDescription: 'Breathing', status: 'public', maxPeople: 0 },
          partnerToken,
        )
      )._id;
      // The round starts once everyone has enrolled: they are expected in it (the count rule), so
      // whoever is not scanned is still missing.
      const startsAt = Date.now() + 5000;
      const round = await call(
        `/api/admin/courses/${course}/rounds`,
        {
          roundStartTime: new Date(startsAt).toISOString(),
          roundEndTime: new Date(Date.now() + hour).toISOString(),
        },
        partnerToken,
      );
      roundId = round.round._id;
      roundUrl = `/courses/${course}/rounds/${roundId}`;
      for (const person of [ann, ben, cat]) {
        const token = (await call('/api/login', person)).partner.token;
        await call(`/api/courses/${course}/enroll`, {}, token);
      }
      if (Date.now() >= startsAt) throw new Error('enrolling took longer than the time before the round');
      await new Promise((resolve) => setTimeout(resolve, startsAt - Date.now() + 200));
    });

    const signIn = (on: Browser, person: Person, lang: 'en' | 'th' = 'en') =>
      signInAt(on, portal.url, person, { lang });

    it('scans the pass a member shows to the camera, and types the next one', async () => {
      // The member's phone: the pass on their home page.
      const phone = await signIn(browser, ann);
      const qr = phone.getByTestId('pass-qr');
      await qr.waitFor();
      // A pass code is accepted in its own 30 s window and the next. Late in a window, wait for the
      // code to turn, so the camera below has at least 40 s however slow the machine is.
      const intoWindow = Date.now() % PASS_WINDOW_MS;
      if (intoWindow > 20_000) {
        const before = await qr.innerHTML();
        await expect.poll(() => qr.innerHTML(), { timeout: 20_000 }).not.toBe(before);
      }
      await phone.screenshot({ path: join(SCREENSHOTS, 'member-pass-en.png'), fullPage: true });
      const video = join(tmpdir(), `pass-${Date.now()}.y4m`);
      // The code the page draws, drawn crisply for the fake camera (an enlarged screenshot of the
      // drawing blurs a signed pass's modules and was missed now and then).
      const { code } = await phone.evaluate(() =>
        fetch('/api/members/me/pass', { credentials: 'same-origin' }).then((response) => response.json()),
      );
      await writeFile(video, await passVideo(code as string));
      await phone.context().close();

      // The partner's laptop, whose camera sees that phone.
      const withCamera = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          `--use-file-for-fake-video-capture=${video}`,
        ],
      });
      try {
        const page = await signIn(withCamera, partner);
        await page.context().grantPermissions(['camera'], { origin: portal.url });
        await page.goto(`${portal.url}${roundUrl}`);
        await page.getByRole('heading', { name: 'Round 1 Details' }).waitFor();
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
        const outcome = page.getByTestId('scan-outcome');
        await waitForOutcome(page, '✓ Ann Camera');
        expect(await outcome.innerText()).toContain('Attendance recorded');
        await page.screenshot({ path: join(SCREENSHOTS, 'round-camera-accepted-en.png'), fullPage: true });

        // Typed: empty first, then a username; then the same person again.
        await page.getByRole('button', { name: 'Mark Attendance' }).click();
        await page.getByText('No User ID to scan. Please scan a QR code or enter manually.').waitFor();
        await page.getByLabel(/User ID/).fill(ben.username);
        await page.getByRole('button', { name: 'Mark Attendance' }).click();
        await outcome.getByText('✓ Ben Typed').waitFor();
        await page.getByLabel(/User ID/).fill(ben.username);
        await page.getByLabel(/User ID/).press('Enter');
        await outcome.getByText(/Already scanned at \d\d:\d\d/).waitFor();
        await expect.poll(() => page.locator('.scanned-list tbody tr').count()).toBe(2);
        expect(await page.locator('.roster-list.missing').innerText()).toContain('Cat Elsewhere');
        await page.context().close();
      } finally {
        await withCamera.close();
      }
    });

    it('queues scans while offline and sends them once when back; counts follow scans made elsewhere', async () => {
      const page = await signIn(browser, partner, 'th');
      await page.goto(`${portal.url}${roundUrl}`);
      await page.getByRole('heading', { name: 'รายละเอียดรอบที่ 1' }).waitFor();
      const attendees = page.locator('.tile').first();
      await expect.poll(() => attendees.innerText()).toMatch(/2$/);

      // A scan made on another device shows here without reloading.
      await call(`/api/admin/updateround/${roundId}`, { userId: cat.username }, partnerToken, 'PUT');
      await expect.poll(() => attendees.innerText(), { timeout: 5000 }).toMatch(/3$/);

      // Offline: the scan is decided and waits on this device, then goes through exactly once.
      await page.context().setOffline(true);
      await page.getByLabel(/รหัสผู้ใช้/).fill(ann.username);
      await page.getByRole('button', { name: 'บันทึกการเข้าเรียน' }).click();
      // Decided on the device from the roster it holds: Ann is already in, so a duplicate, to be confirmed.
      const offlineOutcome = page.getByTestId('scan-outcome');
      await offlineOutcome.getByText(/^↺ /).waitFor();
      await offlineOutcome.getByText('ออฟไลน์: จะยืนยันเมื่อเชื่อมต่อได้').waitFor();
      await page.getByText('มี 1 รายการสแกนรอส่ง').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'round-offline-th.png'), fullPage: true });
      await page.context().setOffline(false);
      await page.evaluate(() => window.dispatchEvent(new Event('online')));
      await expect.poll(() => page.getByText('มี 1 รายการสแกนรอส่ง').count(), { timeout: 20_000 }).toBe(0);
      // The "no connection" notice gives way to how many were sent (found: it stayed on screen).
      const outcome = page.getByTestId('scan-outcome');
      await outcome.getByText('ส่งรายการสแกนที่บันทึกไว้ในอุปกรณ์นี้ 1 รายการแล้ว').waitFor();
      expect(await outcome.innerText()).not.toContain('ไม่มีการเชื่อมต่อ');
      await page.screenshot({ path: join(SCREENSHOTS, 'round-offline-sent-th.png'), fullPage: true });
      const round = (await fetch(`${portal.url}/api/admin/rounds/${roundId}`, {
        headers: { authorization: `Bearer ${partnerToken}` },
      }).then((response) => response.json())) as { round: { attended: number } };
      expect(round.round.attended).toBe(3); // Ann was already in: the replay is a duplicate, not a new count
      await page.context().close();
    });

    it('lets an admin void a wrong scan, with a reason, and the count drops', async () => {
      const page = await signIn(browser, ADMIN);
      await page.goto(`${portal.url}${roundUrl}`);
      const attendees = page.locator('.tile').first();
      await expect.poll(() => attendees.innerText()).toMatch(/3$/);
      await page.getByRole('button', { name: 'Void: Ben Typed' }).click();
      const dialog = page.getByRole('alertdialog');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await dialog.getByText('Please give a reason.').waitFor();
      await dialog.getByLabel(/Why/).fill('Ben left before the class started');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('The scan was voided.').waitFor();
      await expect.poll(() => attendees.innerText()).toMatch(/2$/);
      expect(await page.locator('.roster-list.missing').innerText()).toContain('Ben Typed');
      await page.context().close();
    });

    it('reports attendance per course, with the participants who were really scanned', async () => {
      const page = await signIn(browser, partner);
      await page.locator('summary', { hasText: 'User menu' }).click();
      await page.locator('.user-menu').getByRole('link', { name: 'Attendance report' }).click();
      await page.getByRole('heading', { name: 'Course Attendance Overview' }).waitFor();
      const card = page.locator('article.course-card').filter({ hasText: 'Morning Yoga' });
      expect(await card.locator('dl').innerText()).toMatch(/Participants\s+2[\s\S]*Attended\s+2[\s\S]*Absent\s+0/);
      await page.getByLabel('Sort by').selectOption('totalAttend');
      await card.getByRole('button', { name: 'View All Participants' }).click();
      const modal = page.getByRole('dialog');
      await modal.getByRole('heading', { name: 'Participants for Morning Yoga' }).waitFor();
      expect(await modal.locator('li strong').allInnerTexts()).toEqual(['Ann Camera', 'Cat Elsewhere']);
      expect(await modal.innerText()).toContain(ann.personalEmail.toLowerCase());
      await page.screenshot({ path: join(SCREENSHOTS, 'report-participants-en.png'), fullPage: true });
      await modal.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('searchbox').fill('nothing of the sort');
      await page
        .getByText('No courses found matching your criteria. Try adjusting your filters or ensure courses exist.')
        .waitFor();
      await page.getByRole('button', { name: 'Reset Filters' }).click();
      await card.waitFor();
      await page.context().close();

      const member = await signIn(browser, ann, 'th');
      await member.goto(`${portal.url}/report`);
      await member.getByText('คุณไม่มีสิทธิ์เข้าถึงหน้านี้').waitFor();
      await member.context().close();
    });

    it('shows admins every attempt in the scan audit, filtered, and exports it', async () => {
      const page = await signIn(browser, ADMIN);
      await page.locator('#admin-sidebar').getByRole('link', { name: 'Scan audit' }).click();
      await page.getByRole('heading', { name: 'Scan audit' }).waitFor();
      await page.getByLabel('Outcome').selectOption('voided');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      expect(await page.locator('tbody tr').innerText()).toContain('Ben left before the class started');
      await page.getByLabel('Outcome').selectOption('accepted');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
      // All seven columns, ids included, fit beside the sidebar at 1280 px: none cut off.
      expect(
        await page.locator('.table-wrap').evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth),
      ).toBeLessThanOrEqual(1);
      await page.screenshot({ path: join(SCREENSHOTS, 'audit-en.png'), fullPage: true });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('scan_audit.csv');
      await page.context().close();
    });

    it('fits a phone: the round page at 375 px, in Thai, without sideways scrolling', async () => {
      const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
      await context.addInitScript(() => localStorage.setItem('lang', 'th'));
      const page = await context.newPage();
      await page.goto(`${portal.url}/login`);
      await page.locator('input[name=username]').fill(partner.username);
      await page.locator('input[name=password]').fill(partner.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/partner$/);
      await page.goto(`${portal.url}${roundUrl}`);
      await page.getByRole('heading', { name: 'รายละเอียดรอบที่ 1' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // The scanned list fits too (found: its time column was cut and names wrapped a syllable a line).
      const list = page.locator('.scanned-list');
      await list.locator('tbody tr').first().waitFor();
      expect(await list.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      expect(await list.locator('.when-short').first().innerText()).toMatch(/^\d\d:\d\d$/);
      const nameCell = list.locator('tbody td').first();
      const lineHeight = await nameCell.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 24);
      expect((await nameCell.boundingBox())!.height).toBeLessThan(3 * lineHeight + 24); // two lines at most
      await page.screenshot({ path: join(SCREENSHOTS, 'round-th-375.png'), fullPage: true });
      await context.close();
    });

    it('puts the pass first on a member’s phone, and answers the profile QR shown instead', async () => {
      const context = await browser.newContext({ viewport: { width: 375, height: 667 } });
      await context.addInitScript(() => {
        localStorage.setItem('lang', 'th');
        localStorage.setItem('theme', 'dark');
      });
      const phone = await context.newPage();
      await phone.goto(`${portal.url}/login`);
      await phone.locator('input[name=username]').fill(cat.username);
      await phone.locator('input[name=password]').fill(cat.password);
      await phone.locator('button[type=submit]').click();
      await phone.waitForURL(/\/e-market$/);
      const pass = phone.getByTestId('pass-qr');
      await pass.waitFor();
      const box = (await pass.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(667); // above the fold, before scrolling
      const note = phone.locator('.qr-card .qr-note');
      expect(await note.innerText()).toBe('ลิงก์ไปยังโปรไฟล์ของคุณ ไม่ใช่บัตรเข้าเรียน');
      await phone.screenshot({ path: join(SCREENSHOTS, 'member-home-pass-th-375.png') });
      // What the profile card's QR holds, shown to the scanner instead of the pass.
      const profileLink = await phone.locator('.qr-card canvas').getAttribute('title');
      await context.close();

      const page = await signIn(browser, partner);
      await page.goto(`${portal.url}${roundUrl}`);
      await page.getByLabel(/User ID/).fill(profileLink!);
      await page.getByRole('button', { name: 'Mark Attendance' }).click();
      const outcome = page.getByTestId('scan-outcome');
      await outcome.getByText('This is a profile QR, not an attendance pass: open your pass.').waitFor();
      expect(await outcome.innerText()).toContain('Cat Elsewhere');
      await page.context().close();
    });

    it('opens an ended round read-only and a future one as not active, with no camera or entry', async () => {
      const course = (
        await call(
          '/api/admin/createcourse',
          { courseTopic: 'Evening Yoga', courseDescription: 'Past and future', status: 'public', maxPeople: 0 },
          partnerToken,
        )
      )._id;
      const roundAt = async (from: number, to: number) =>
        (
          await call(
            `/api/admin/courses/${course}/rounds`,
            {
              roundStartTime: new Date(Date.now() + from).toISOString(),
              roundEndTime: new Date(Date.now() + to).toISOString(),
            },
            partnerToken,
          )
        ).round._id;
      const ended = await roundAt(-3 * hour, -2 * hour);
      const future = await roundAt(2 * hour, 3 * hour);
      await call(`/api/courses/${course}/enroll`, {}, (await call('/api/login', cat)).partner.token);
      for (const [options, suffix] of [
        [{ lang: 'th', width: 375, theme: 'dark' }, 'th-375'],
        [{ lang: 'en', width: 1280, theme: 'light' }, 'en'],
      ] as const) {
        const page = await signInAt(browser, portal.url, partner, options);
        await page.goto(`${portal.url}/courses/${course}/rounds/${ended}`);
        const panel = page.getByTestId('round-not-active');
        await panel.waitFor();
        expect(await panel.innerText()).toContain(options.lang === 'th' ? 'รอบเรียนนี้สิ้นสุดแล้ว' : 'This round has ended.');
        expect(await page.locator('.scanner, .scan-outcome, .scan-panel form').count()).toBe(0);
        expect(await page.locator('.roster h3').first().innerText()).toBe(
          options.lang === 'th' ? 'ผู้ขาดเรียน' : 'Absentees',
        );
        expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: join(SCREENSHOTS, `round-ended-${suffix}.png`), fullPage: true });
        await page.goto(`${portal.url}/courses/${course}/rounds/${future}`);
        await panel.getByText(options.lang === 'th' ? 'เปิดสแกนเวลา' : 'Scanning opens at').waitFor();
        expect(await panel.innerText()).toContain(options.lang === 'th' ? 'รอบเรียนไม่ได้เปิดอยู่' : 'Round Not Active');
        expect(await page.locator('.scanner').count()).toBe(0);
        await page.screenshot({ path: join(SCREENSHOTS, `round-upcoming-${suffix}.png`), fullPage: true });
        await page.context().close();
      }
    });
  },
);
