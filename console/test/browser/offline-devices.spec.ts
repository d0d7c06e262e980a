import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { lanAddresses } from '@portal/deploy/local-tls';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  earlyInPassWindow,
  openRoundOnce,
  phoneOnLanSkipReason,
  registerApproved,
  roundStartingNow,
  signIn,
  waitForOutcome,
  watchConsole,
  withPortalAndBrowser,
} from './chromium.ts';
import { blankY4m, passVideo } from './fake-camera.ts';

const PASS_SECRET = 'offline-devices-pass-secret';
const skip = phoneOnLanSkipReason();

interface AuditAttempt {
  memberId: string | null;
  deviceId: string | null;
  outcome: string;
  reason: string | null;
  offlineDecision: string | null;
}

/**
 * Two doors, no server (issue 18, items 4, 5 and 9): two phones at the LAN address over https
 * open the round, lose the portal, open the page again from the service worker, and decide alone
 * with the camera: both let Ann in (she showed her pass at each door). One also turns away a
 * screenshot of Ben's old pass, his profile QR and a forged pass. When the portal is back, the
 * server keeps exactly one of Ann's scans, the other door is told so, both rosters show the
 * merged truth within 5 seconds, and the audit holds every attempt with its device and what the
 * device had decided.
 */
describe.skipIf(skip !== null)('two scanners deciding offline, then converging', () => {
  let portal: RunningPortal;
  let browser: Browser;
  const partner = samplePartner({ fullName: 'Door Partner' });
  const ann = sampleMember({ fullName: 'Ann Twodoors' });
  const ben = sampleMember({ fullName: 'Ben Screenshot' });
  const keys = passKeysFor(PASS_SECRET);
  const video = join(tmpdir(), `offline-doors-${Date.now()}.y4m`);
  let ids: Record<string, string> = {};
  let roundUrl = '';
  let roundId = '';
  const call = apiCaller(() => portal.url);
  const origin = () => `https://${lanAddresses()[0]}:${portal.httpsPort}`;
  /** What the camera sees from now on (Chromium reads the file each time the camera opens). */
  const showToCamera = async (code: string) => writeFile(video, await passVideo(code));

  beforeAll(async () => writeFile(video, await blankY4m()));
  const portalAway = withPortalAndBrowser((started) => ({ portal, browser } = started), {
    database: 'pglite',
    env: { HOST: '0.0.0.0', PASS_SECRET },
    chromiumFlags: ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    trustPortalAuthority: true,
  });
  beforeAll(async () => {
    const admin = (await call('/api/login', ADMIN)).partner.token;
    ids = await registerApproved(call, admin, { partners: [partner], members: [ann, ben] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    ({ roundId, roundUrl } = await roundStartingNow(call, partnerToken, [ann, ben], 'Two Doors'));
  }, 180_000);

  /** A phone that has opened the round once (the service worker keeps it), camera not yet allowed. */
  async function door(options: { lang: 'th' | 'en'; width: number; theme: 'dark' | 'light' }, heading: string) {
    const page = await signIn(browser, origin(), partner, options);
    watchConsole(page);
    await openRoundOnce(page, `${origin()}${roundUrl}`, heading);
    return page;
  }
  const deviceOf = (page: Page) => page.evaluate(() => localStorage.getItem('scanner.device'));
  const attendees = (page: Page) => page.locator('.tile').first().innerText();

  it('decides at each door alone, keeps one of Ann’s two scans when back, and tells the other door', async () => {
    const doorA = await door({ lang: 'th', width: 375, theme: 'dark' }, 'รายละเอียดรอบที่ 1');
    const doorB = await door({ lang: 'en', width: 1280, theme: 'light' }, 'Round 1 Details');

    const httpsOrigin = origin();
    const backAgain = await portalAway.stopForAWhile();

    // Ann shows her pass at each door; each phone opens the round from its service worker and decides.
    await earlyInPassWindow();
    await showToCamera(keys.issue(ids[ann.username]!).code);
    for (const [page, heading] of [
      [doorA, 'รายละเอียดรอบที่ 1'],
      [doorB, 'Round 1 Details'],
    ] as const) {
      await page.context().grantPermissions(['camera'], { origin: httpsOrigin });
      await page.reload();
      await page.getByRole('heading', { name: heading }).waitFor({ timeout: 20_000 });
    }
    const outcomeA = doorA.getByTestId('scan-outcome');
    await waitForOutcome(doorA, '✓ Ann Twodoors');
    await outcomeA.getByText('ออฟไลน์: จะยืนยันเมื่อเชื่อมต่อได้').waitFor();
    // Counted at once on this phone, marked as waiting for the server.
    await doorA.locator('.roster-list.here').getByText('Ann Twodoors').waitFor();
    expect(await attendees(doorA)).toMatch(/1$/);
    await doorA.screenshot({ path: join(SCREENSHOTS, 'round-offline-decided-th-375.png'), fullPage: true });
    const outcomeB = doorB.getByTestId('scan-outcome');
    await waitForOutcome(doorB, '✓ Ann Twodoors');
    await outcomeB.getByText('Offline: will be confirmed').waitFor();

    // At door B, what a person might try instead of a pass, typed or from a barcode scanner.
    const entry = doorB.getByLabel('User ID (or username), typed or from a barcode scanner');
    const tryAtB = async (code: string, expected: string) => {
      await entry.fill(code);
      await doorB.getByRole('button', { name: 'Mark Attendance' }).click();
      await outcomeB.getByText(expected).waitFor();
      await outcomeB.getByText('Offline: will be confirmed').waitFor();
    };
    const benId = ids[ben.username]!;
    await tryAtB(keys.issue(benId, Date.now() - 3 * 60_000).code, 'This pass has expired.');
    await tryAtB(`${httpsOrigin}/api/members/profile/${benId}`, 'This is a profile QR, not an attendance pass');
    await tryAtB(passKeysFor('not-the-portal').issue(benId).code, 'No member matches this code or ID.');
    await doorB.getByText('4 scans are waiting to be sent.').waitFor();

    // The portal is back at the same address: both doors send what they kept.
    await backAgain();
    for (const page of [doorA, doorB]) await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await outcomeA.getByText('ส่งรายการสแกนที่บันทึกไว้ในอุปกรณ์นี้ 1 รายการแล้ว').waitFor({ timeout: 30_000 });
    await outcomeB.getByText('the 4 scans saved on this device were sent').waitFor({ timeout: 30_000 });
    // Each roster shows the merged truth within 5 seconds: Ann here once.
    for (const page of [doorA, doorB]) await expect.poll(() => attendees(page), { timeout: 5_000 }).toMatch(/1$/);

    const admin = (await call('/api/login', ADMIN)).partner.token;
    const audit = await call<{ attempts: AuditAttempt[] }>(
      `/api/admin/audit/scans?roundId=${roundId}&pageSize=50`,
      undefined,
      admin,
      'GET',
    );
    const [deviceA, deviceB] = [await deviceOf(doorA), await deviceOf(doorB)];
    const annAttempts = audit.attempts.filter((a) => a.memberId === ids[ann.username]);
    expect(annAttempts.map((a) => a.outcome).sort()).toEqual(['accepted', 'refused']);
    expect(annAttempts.map((a) => a.deviceId).sort()).toEqual([deviceA, deviceB].sort());
    expect(annAttempts.every((a) => a.offlineDecision === 'accepted')).toBe(true);
    const second = annAttempts.find((a) => a.outcome === 'refused')!;
    expect(second.reason).toBe('duplicate');
    // The door whose scan came second is told, in its own language; the other is not.
    const [toldDoor, quietDoor] = second.deviceId === deviceA ? [doorA, doorB] : [doorB, doorA];
    await toldDoor
      .getByTestId('corrections')
      .getByText(/Ann Twodoors: .*(from another device|จากอุปกรณ์อื่น)/)
      .waitFor();
    expect(await quietDoor.getByTestId('corrections').count()).toBe(0);
    await toldDoor.screenshot({ path: join(SCREENSHOTS, 'round-offline-converged.png'), fullPage: true });

    expect(
      audit.attempts
        .filter((a) => a.memberId !== ids[ann.username])
        .map((a) => [a.deviceId, a.outcome, a.reason, a.offlineDecision])
        .sort(),
    ).toEqual(
      [
        [deviceB, 'refused', 'codeExpired', 'codeExpired'],
        [deviceB, 'refused', 'profileQr', 'profileQr'],
        [deviceB, 'refused', 'unknownMember', 'unknownMember'],
      ].sort(),
    );
    await doorA.context().close();
    await doorB.context().close();
  });
});
