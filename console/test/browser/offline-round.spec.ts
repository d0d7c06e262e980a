import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lanAddresses } from '@portal/deploy/local-tls';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  openRoundOnce,
  phoneOnLanSkipReason,
  registerApproved,
  roundStartingNow,
  signIn,
  withPortalAndBrowser,
} from './chromium.ts';

const skip = phoneOnLanSkipReason();

/**
 * The scanner as an installed app (issue 18), on a phone at the machine's LAN address over
 * https: after one visit the round page opens with no server at all (the portal is stopped, not
 * merely emulated offline), shows the round and its roster, decides a scan itself and keeps it in the offline queue,
 * and when the portal is back sends it and follows live updates again by itself.
 */

describe.skipIf(skip !== null)('the round page with no network, on a phone at the LAN address over https', () => {
  let portal: RunningPortal;
  let browser: Browser;
  const partner = samplePartner({ fullName: 'Offline Partner' });
  const ann = sampleMember({ fullName: 'Ann Offline' });
  const ben = sampleMember({ fullName: 'Ben Elsewhere' });
  let roundUrl = '';
  let roundId = '';
  const call = apiCaller(() => portal.url);
  // As a phone in the room opens it: the machine's LAN address, over https, the authority trusted.
  const origin = () => `https://${lanAddresses()[0]}:${portal.httpsPort}`;

  const portalAway = withPortalAndBrowser((started) => ({ portal, browser } = started), {
    database: 'pglite',
    env: { HOST: '0.0.0.0' },
    trustPortalAuthority: true,
  });
  beforeAll(async () => {
    const admin = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, admin, { partners: [partner], members: [ann, ben] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    await givePhoto(ann);
    ({ roundId, roundUrl } = await roundStartingNow(call, partnerToken, [ann, ben], 'Offline Course'));
  }, 180_000);
  /** A profile photo for `person`, uploaded and saved as the settings page does. */
  async function givePhoto(person: typeof ann) {
    const { token, _id } = (await call<{ partner: { token: string; _id: string } }>('/api/login', person)).partner;
    const png = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#b45309' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('profileImage', new Blob([png], { type: 'image/png' }), 'face.png');
    const uploaded = await fetch(`${portal.url}/api/members/uploadprofile/${_id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }).then((response) => response.json() as Promise<{ imageUrl: string }>);
    const { fullName, personalPhone, personalEmail } = person;
    await call(
      `/api/members/profile/${_id}`,
      { fullName, personalPhone, personalEmail, profile_img: uploaded.imageUrl },
      token,
      'PUT',
    );
  }

  it('installs, opens the round with the portal stopped, queues a scan, and catches up when it is back', async () => {
    const page = await signIn(browser, origin(), partner, { width: 375, lang: 'th', theme: 'dark' });
    const manifest = await page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel=manifest]')!;
      return (await fetch(link.href)).json();
    });
    expect(manifest).toMatchObject({ name: 'Course Portal', display: 'standalone', start_url: '/' });
    await openRoundOnce(page, `${origin()}${roundUrl}`, 'รายละเอียดรอบที่ 1');
    const heading = page.getByRole('heading', { name: 'รายละเอียดรอบที่ 1' });
    await page.locator('.roster-list.missing').getByText('Ann Offline').waitFor();

    const annPhoto = page.locator('.roster-list.missing li', { hasText: 'Ann Offline' }).locator('img');
    // The portal is gone: the page still opens, with the round and its roster, photos included.
    const backAgain = await portalAway.stopForAWhile();
    await page.reload();
    await heading.waitFor({ timeout: 20_000 });
    await page.locator('.roster-list.missing').getByText('Ann Offline').waitFor();
    await expect.poll(() => annPhoto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await page.getByLabel(/รหัสผู้ใช้/).fill(ann.username);
    await page.getByRole('button', { name: 'บันทึกการเข้าเรียน' }).click();
    // Decided on the phone, from the roster it kept: Ann is enrolled, so she is in, to be confirmed.
    await page.getByTestId('scan-outcome').getByText('✓ Ann Offline').waitFor();
    // Her face on the banner, from the photo the phone kept: the person at the door compares.
    await expect
      .poll(() => page.getByTestId('scan-face').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await page.getByTestId('scan-outcome').getByText('ออฟไลน์: จะยืนยันเมื่อเชื่อมต่อได้').waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, 'round-offline-cold-th-375.png'), fullPage: true });

    // Back on the same address: the queued scan is sent, and live updates resume by themselves.
    await backAgain();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.getByTestId('scan-outcome').getByText('ส่งรายการสแกนที่บันทึกไว้ในอุปกรณ์นี้ 1 รายการแล้ว').waitFor({
      timeout: 30_000,
    });
    const attendees = page.locator('.tile').first();
    await expect.poll(() => attendees.innerText(), { timeout: 10_000 }).toMatch(/1$/);
    const partnerToken = (await call('/api/login', partner)).partner.token;
    await call(`/api/admin/updateround/${roundId}`, { userId: ben.username }, partnerToken, 'PUT');
    await expect.poll(() => attendees.innerText(), { timeout: 15_000 }).toMatch(/2$/);
    await page.context().close();
  });
});
