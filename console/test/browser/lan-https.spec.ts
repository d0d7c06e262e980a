import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { lanAddresses } from '@portal/deploy/local-tls';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  earlyInPassWindow,
  launchChromium,
  phoneOnLanSkipReason,
  registerApproved,
  roundStartingNow,
  sidewaysOverflow,
  signIn,
  waitForOutcome,
  withPortalAndBrowser,
} from './chromium.ts';
import { homeTrusting, passVideo } from './fake-camera.ts';
import { phoneCameras } from './phone-cameras.ts';
import { terminalHtml } from './terminal.ts';

const skip = phoneOnLanSkipReason();

/**
 * A partner's phone on the room's network opens the portal by the machine's LAN address. Over
 * http the browser hides the camera (not a secure context); over https, once the phone trusts
 * the portal's own authority (here: Chromium's certificate store, as a phone's), the round page
 * reads a member's pass with the camera.
 */
describe.skipIf(skip !== null)('the round page from a phone on the local network', () => {
  let portal: RunningPortal;
  let browser: Browser;
  const lan = lanAddresses()[0]!;
  const partner = samplePartner({ fullName: 'Room Partner' });
  const ann = sampleMember({ fullName: 'Ann Across The Room' });
  let roundUrl = '';
  const call = apiCaller(() => portal.url);

  withPortalAndBrowser((started) => ({ portal, browser } = started), {
    env: { HOST: '0.0.0.0' },
  });
  beforeAll(async () => {
    const admin = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, admin, { partners: [partner], members: [ann] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    ({ roundUrl } = await roundStartingNow(call, partnerToken, [ann], 'Room Course'));
  }, 180_000);

  it('prints the https address with a QR code for the phone, as a terminal shows it', async () => {
    const banner = portal.output().slice(portal.output().indexOf('  Course portal is running at'));
    expect(banner).toContain(`https://${lan}:${portal.httpsPort}`);
    const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
    const lines = banner.split('\n');
    const logs = lines.findIndex((line) => line.startsWith('{')); // the request log after the banner
    await page.setContent(terminalHtml(lines.slice(0, logs < 0 ? undefined : logs).join('\n')));
    await page.screenshot({ path: join(SCREENSHOTS, 'start-banner.png'), fullPage: true });
    await page.close();
  });

  it('over http at the LAN address, the browser offers no camera, and the round page links to https', async () => {
    const http = `http://${lan}:${new URL(portal.url).port}`;
    for (const [options, shot] of [
      [{ width: 375, theme: 'dark', lang: 'th' }, 'round-camera-insecure-th-375.png'],
      [{ width: 1280, theme: 'light', lang: 'en' }, 'round-camera-insecure-en.png'],
    ] as const) {
      const page = await signIn(browser, http, partner, options);
      expect(await page.evaluate(() => [window.isSecureContext, 'mediaDevices' in navigator])).toEqual([false, false]);
      await page.goto(`${http}${roundUrl}`);
      const problem = page.locator('[data-problem]');
      await problem.waitFor();
      expect(await problem.getAttribute('data-problem')).toBe('insecure');
      const secure = `https://${lan}:${portal.httpsPort}${roundUrl}`;
      expect(await problem.getByRole('link').getAttribute('href')).toBe(secure);
      expect(await problem.innerText()).toContain(
        options.lang === 'th' ? 'กล้องใช้ได้เฉพาะในหน้าที่ปลอดภัย (https)' : 'The camera works only on a secure (https) page',
      );
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      await problem.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, shot) });
      await page.context().close();
    }
  });

  it('says when the camera was refused, and when there is none', async () => {
    const open = async (on: Browser, grant: boolean) => {
      const page = await signIn(on, portal.url, partner);
      if (grant) await page.context().grantPermissions(['camera'], { origin: portal.url });
      await page.goto(`${portal.url}${roundUrl}`);
      const problem = page.locator('[data-problem]');
      await problem.waitFor({ timeout: 15_000 });
      const answer = [await problem.getAttribute('data-problem'), await problem.innerText()];
      await page.context().close();
      return answer;
    };
    // Headless Chromium has no camera at all.
    expect(await open(browser, true)).toEqual(['missing', 'No camera was found on this device.']);
    const withCamera = await launchChromium(['--use-fake-device-for-media-stream']);
    try {
      const [problem, text] = await open(withCamera, false);
      expect(problem).toBe('denied');
      expect(text).toContain('Allow it for this site in the browser');
    } finally {
      await withCamera.close();
    }
  });

  /**
   * The round page on a phone with two cameras that opens one at a time, the partner signed in,
   * once the page lists both: `test` is given the page, the camera's choice and the cameras' ids.
   */
  const onTwoCameraPhone = async (test: (page: Page, choice: Locator, ids: string[]) => Promise<void>) => {
    const twoCameras = await launchChromium([
      '--use-fake-device-for-media-stream=device-count=2',
      '--use-fake-ui-for-media-stream',
    ]);
    try {
      const page = await signIn(twoCameras, portal.url, partner);
      await page.context().grantPermissions(['camera'], { origin: portal.url });
      await page.context().addInitScript(phoneCameras, { oneAtATime: true });
      await page.goto(`${portal.url}${roundUrl}`);
      const choice = page.getByLabel('Camera');
      await expect.poll(() => choice.locator('option').count(), { timeout: 15_000 }).toBe(2);
      const ids = await choice
        .locator('option')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      await test(page, choice, ids);
      await page.context().close();
    } finally {
      await twoCameras.close();
    }
  };

  it('switches to the other camera and shows its picture, however often and fast the partner switches, on a phone that opens one camera at a time', async () => {
    await onTwoCameraPhone(async (page, choice, ids) => {
      // What the viewfinder shows: each picture playing in it, the camera it remembers, and any
      // problem the page tells of.
      const viewfinder = () =>
        page.evaluate(() => ({
          playing: [...document.querySelectorAll('.scanner-view video')].map(
            (video) => !(video as HTMLVideoElement).paused && (video as HTMLVideoElement).readyState >= 2,
          ),
          camera: localStorage.getItem('scanner.camera'),
          problem: document.querySelector('[data-problem]')?.getAttribute('data-problem') ?? null,
        }));
      const showsOnly = async (id: string) => {
        const shown = { playing: [true], camera: id, problem: null };
        await expect.poll(viewfinder, { timeout: 15_000 }).toEqual(shown);
        // And it stays: nothing left of the camera before takes the picture away.
        await page.waitForTimeout(1_000);
        expect(await viewfinder()).toEqual(shown);
      };
      for (const id of [ids[0]!, ids[1]!, ids[0]!, ids[1]!]) {
        await choice.selectOption(id);
        await showsOnly(id);
      }
      // A partner who changes their mind at once: each camera chosen before the one before it has
      // started or stopped. The last chosen is the one shown, once.
      for (const gap of [0, 20, 60, 150]) {
        await choice.evaluate(
          async (select, { order, gap }) => {
            for (const id of order) {
              (select as HTMLSelectElement).value = id;
              select.dispatchEvent(new Event('change', { bubbles: true }));
              await new Promise((resolve) => setTimeout(resolve, gap));
            }
          },
          { order: [ids[0]!, ids[1]!, ids[0]!, ids[1]!, ids[0]!], gap },
        );
        await showsOnly(ids[0]!);
      }
      // Leaving the page (within the app) the moment a camera is chosen, before its picture
      // comes: the camera is closed all the same, not left on.
      await choice.evaluate((select, id) => {
        (select as HTMLSelectElement).value = id;
        select.dispatchEvent(new Event('change', { bubbles: true }));
        window.history.pushState(null, '', '/');
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, ids[1]!);
      await expect.poll(() => page.locator('.scanner-view').count()).toBe(0);
      const openCameras = () => page.evaluate(() => (window as unknown as { openCameras: () => number }).openCameras());
      await expect.poll(openCameras, { timeout: 5_000 }).toBe(0);
      await page.waitForTimeout(1_000);
      expect(await openCameras()).toBe(0);
    });
  });

  it('remembers the camera chosen last, though the one before it opened after the choice and the chosen one will not open', async () => {
    await onTwoCameraPhone(async (page, choice, [first, second]) => {
      const state = () =>
        page.evaluate(() => ({
          remembered: localStorage.getItem('scanner.camera'),
          chosen: (document.querySelector('.scanner select') as HTMLSelectElement | null)?.value ?? null,
          problem: document.querySelector('[data-problem]')?.getAttribute('data-problem') ?? null,
        }));
      await choice.selectOption(first!);
      await expect.poll(state, { timeout: 15_000 }).toEqual({ remembered: first, chosen: first, problem: null });
      // The second camera is taken by another app; the first takes a second to open.
      await page.evaluate(
        ({ first, second }) => Object.assign(window, { cameraRules: { slow: { [first]: 1_000 }, failing: second } }),
        { first: first!, second: second! },
      );
      await choice.selectOption(second!);
      await expect.poll(state, { timeout: 15_000 }).toMatchObject({ problem: 'busy' });
      // The partner tries the first again, then, before it has opened, the second once more.
      await choice.selectOption(first!);
      await page.waitForTimeout(200);
      await choice.selectOption(second!);
      await page.waitForTimeout(2_000);
      const last = { remembered: second, chosen: second, problem: 'busy' };
      expect(await state()).toEqual(last);
      // And on the next visit (the other app gone) the page opens the camera chosen last, not the
      // one that opened late.
      await page.reload();
      await expect.poll(state, { timeout: 15_000 }).toEqual({ ...last, problem: null });
    });
  });

  it('over https at the LAN address, trusting the portal’s authority, reads a pass with the camera', async () => {
    // The code her phone shows, drawn crisply for the fake camera (a screenshot of the 220 px
    // drawing, enlarged, blurs a signed pass's modules and was missed now and then).
    const phone = await signIn(browser, portal.url, ann);
    await phone.getByTestId('pass-qr').waitFor();
    await earlyInPassWindow();
    const { code } = await phone.evaluate(() =>
      fetch('/api/members/me/pass', { credentials: 'same-origin' }).then((response) => response.json()),
    );
    const video = join(tmpdir(), `lan-pass-${Date.now()}.y4m`);
    await writeFile(video, await passVideo(code as string));
    await phone.context().close();

    const room = await launchChromium(
      [
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
      { env: { HOME: homeTrusting(join(portal.dataDir, 'tls/ca.crt')) } },
    );
    try {
      const origin = `https://${lan}:${portal.httpsPort}`;
      const page = await signIn(room, origin, partner, { width: 375, theme: 'dark', lang: 'th' });
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      await page.context().grantPermissions(['camera'], { origin });
      await page.goto(`${origin}${roundUrl}`);
      await waitForOutcome(page, '✓ Ann Across The Room');
      await page.screenshot({ path: join(SCREENSHOTS, 'round-lan-https-th-375.png'), fullPage: true });
      await page.context().close();
    } finally {
      await room.close();
    }
  });
});
