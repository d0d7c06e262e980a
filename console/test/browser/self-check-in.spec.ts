import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { roomCodeAt } from '@portal/platform/attendance/room-code';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { axeViolations } from './axe.ts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  launchChromium,
  newPage,
  registerApproved,
  roundStartingNow,
  sidewaysOverflow,
  signIn,
  withPortalAndBrowser,
} from './chromium.ts';
import { blankY4m, passVideo } from './fake-camera.ts';

const PASS_SECRET = 'browser-self-check-in-pass-secret';
const shop = { latitude: 13.7307, longitude: 100.5418 };
const inTheRoom = { latitude: 13.7309, longitude: 100.5419 };
const victoryMonument = { latitude: 13.7649, longitude: 100.5383 };

/**
 * Self check-in in a real room (issue 23): the partner puts the room code on the projector, a
 * member's phone reads it with its camera and is in, a member too far away is refused, and a
 * photo of an old code sent home no longer works. The partner's count follows live.
 */
describe.skipIf(chromiumSkipReason())('self check-in on the room code', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), { env: { PASS_SECRET } });
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({
    fullName: 'Rita Room',
    shopLatitude: String(shop.latitude),
    shopLongitude: String(shop.longitude),
  });
  const near = sampleMember({ fullName: 'Nok Near' });
  const far = sampleMember({ fullName: 'Fah Far' });
  const home = sampleMember({ fullName: 'Hom Home' });
  const late = sampleMember({ fullName: 'Lek Late' });
  let roundId = '';
  let roundUrl = '';
  let courseId = '';

  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, adminToken, { partners: [partner], members: [near, far, home, late] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    const round = await roundStartingNow(call, partnerToken, [near, far, home, late], 'Morning yoga');
    ({ roundId, roundUrl, courseId } = round);
    await call(
      `/api/admin/courses/${round.courseId}/self-check-in`,
      { location: { ...shop, radiusMetres: 150 }, onePerDevice: true },
      partnerToken,
      'PUT',
    );
  }, 120_000);

  /** A member's phone: 375 px, where it is, allowed to use the camera and the location. */
  async function phone(
    on: Browser,
    person: { username: string; password: string },
    at: typeof shop,
    lang: 'en' | 'th',
  ) {
    const page = await signIn(on, portal.url, person, { lang, width: 375, theme: 'dark' });
    await page.context().setGeolocation(at);
    await page.context().grantPermissions(['geolocation', 'camera'], { origin: portal.url });
    return page;
  }
  const outcome = (page: Page) => page.getByTestId('self-check-in-outcome');

  it('checks in a member whose phone reads the projected code, and the partner sees the count rise', async () => {
    // The member's phone, its camera looking at a white wall until the code is up.
    const video = join(tmpdir(), `room-code-${Date.now()}.y4m`);
    await writeFile(video, await blankY4m());
    const camera = await launchChromium([
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      const member = await phone(camera, near, inTheRoom, 'th');

      const projector = await signIn(browser, portal.url, partner);
      await projector.goto(`${portal.url}${roundUrl}`);
      await projector.getByRole('button', { name: 'Show room code' }).click();
      const screen = projector.getByTestId('room-code-screen');
      const qr = screen.getByTestId('room-code-qr');
      await qr.waitFor();
      // A fresh code, so the phone has its whole 15 s and the grace to read it.
      const first = await qr.getAttribute('data-link');
      await expect.poll(() => qr.getAttribute('data-link'), { timeout: 20_000 }).not.toBe(first);
      const link = (await qr.getAttribute('data-link'))!;
      expect(link).toMatch(new RegExp(`^${portal.url}/check-in/${roundId}\\?code=[\\w-]+&where=1$`));
      expect(await screen.getByTestId('room-code-count').innerText()).toBe('0 checked in');
      await writeFile(video, await passVideo(link));

      await member.goto(`${portal.url}/check-in`);
      await outcome(member).getByText('✓ เช็กอินเรียบร้อย').waitFor({ timeout: 25_000 });
      expect(new URL(member.url()).pathname).toBe(`/check-in/${roundId}`);
      expect(await sidewaysOverflow(member)).toBe(0);
      expect(await axeViolations(member)).toEqual([]);
      await member.screenshot({ path: join(SCREENSHOTS, 'self-check-in-th-375.png'), fullPage: true });

      // The projector's count follows, without a reload.
      await screen.getByText('1 checked in').waitFor({ timeout: 10_000 });
      expect(await axeViolations(projector)).toEqual([]);
      await projector.screenshot({ path: join(SCREENSHOTS, 'room-code-en.png') });
      await screen.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => projector.locator('.scanned-list tbody tr').count()).toBe(1);
      expect(await projector.locator('.scanned-list').innerText()).toContain('Nok Near');
      await projector.context().close();
      await member.context().close();
    } finally {
      await camera.close();
    }
  });

  it('lets the partner set where and how members check themselves in, field by field', async () => {
    const page = await signIn(browser, portal.url, partner);
    await page.goto(`${portal.url}/courses/${courseId}`);
    const form = page.locator('.self-check-in-settings');
    await form.getByRole('heading', { name: 'Self check-in' }).waitFor();
    expect(await form.getByLabel('Members must be near the class').isChecked()).toBe(true);
    expect(await form.getByLabel('Latitude').inputValue()).toBe(String(shop.latitude));
    expect(await form.getByLabel('One member per phone in each round').isChecked()).toBe(true);
    await form.getByLabel('Radius (metres)').fill('5');
    await form.getByRole('button', { name: 'Save self check-in' }).click();
    await form.getByText('The radius must be a whole number of metres from 10 to 5000.').waitFor();
    await form.getByLabel('Radius (metres)').fill('150');
    await form.getByLabel('Latitude').fill('1');
    await form.getByRole('button', { name: 'Use my shop’s location' }).click();
    expect(await form.getByLabel('Latitude').inputValue()).toBe(String(shop.latitude));
    await form.getByRole('button', { name: 'Save self check-in' }).click();
    await page.getByText('Self check-in settings saved.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await form.screenshot({ path: join(SCREENSHOTS, 'self-check-in-settings-en.png') });
    await page.context().close();
  });

  it('shows the settings in Thai on a phone in the dark theme, fitting and accessible', async () => {
    const page = await signIn(browser, portal.url, partner, { lang: 'th', width: 375, theme: 'dark' });
    await page.goto(`${portal.url}/courses/${courseId}`);
    const form = page.locator('.self-check-in-settings');
    await form.getByRole('heading', { name: 'เช็กอินด้วยตนเอง' }).waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await form.screenshot({ path: join(SCREENSHOTS, 'self-check-in-settings-th-375.png') });
    await page.context().close();
  });

  it('refuses a member too far away, and a photo of the code sent home, each saying why', async () => {
    const { code } = roomCodeAt(PASS_SECRET, roundId, Date.now());
    const tooFar = await phone(browser, far, victoryMonument, 'en');
    await tooFar.goto(`${portal.url}/check-in/${roundId}?code=${code}&where=1`);
    await outcome(tooFar).getByText('✕ You are too far from where the class is held.').waitFor();
    expect(await axeViolations(tooFar)).toEqual([]);
    await tooFar.screenshot({ path: join(SCREENSHOTS, 'self-check-in-too-far-en.png'), fullPage: true });
    await tooFar.context().close();

    // A photo taken half a minute ago, opened at home (where the phone is next to the shop, even).
    const photographed = roomCodeAt(PASS_SECRET, roundId, Date.now() - 30_000).code;
    const atHome = await phone(browser, home, inTheRoom, 'en');
    await atHome.goto(`${portal.url}/check-in/${roundId}?code=${photographed}&where=1`);
    await outcome(atHome).getByText('✕ This room code has expired: scan the code on the screen now.').waitFor();
    await atHome.getByText('Scan the room code on the screen again.').waitFor();
    await atHome.context().close();
  });

  it('brings a member who was not signed in back to the check-in once they sign in', async () => {
    const { code } = roomCodeAt(PASS_SECRET, roundId, Date.now());
    const page = await newPage(browser, { lang: 'en', width: 375 });
    await page.context().setGeolocation(inTheRoom);
    await page.context().grantPermissions(['geolocation'], { origin: portal.url });
    await page.goto(`${portal.url}/check-in/${roundId}?code=${code}&where=1`);
    await page.getByRole('alert').getByRole('link', { name: 'Go to Login' }).click();
    await page.locator('input[name=username]').fill(late.username);
    await page.locator('input[name=password]').fill(late.password);
    await page.locator('button[type=submit]').click();
    await outcome(page).getByText('✓ You are checked in.').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe(`/check-in/${roundId}`);
    await page.context().close();
  });
});
