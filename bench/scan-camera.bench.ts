/**
 * From a pass shown to the camera to the banner on the round page (issue 18, item 8): the portal
 * as `npm start` runs it, Debian's Chromium with a fake camera playing one member's pass each
 * time, 30 members. Measured in the page, from the first frame the camera plays (the pass is in
 * view from the start) to "✓ name" on screen, so it holds decoding, the command's round trip and
 * the banner. Side by side with the scanner's own pace: it looks at the camera 10 times a
 * second, so up to 100 ms pass before it first looks. Offline, the page decides alone (the
 * pass's Ed25519 signature checked in JavaScript, the roster it kept): the same measure with the
 * browser offline and the page opened from its service worker.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startPortalProcess } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { blankY4m, passVideo } from '../console/test/browser/fake-camera.ts';
import { percentile } from './scan-load.ts';

const SCANS = Number(process.env.BENCH_SCANS ?? 30);
const ADMIN = { username: 'admin01', password: 'bench-admin-password' };
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

const portal = await startPortalProcess({
  database: process.env.DATABASE_URL ? 'postgres' : 'pglite',
  env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' },
});
const call = async <T>(path: string, body?: unknown, token?: string, method = 'POST'): Promise<T> =>
  (await fetch(`${portal.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((response) => response.json())) as T;
type Login = { partner: { token: string } };
/** What the page's service worker check reads (the benchmarks are compiled without the DOM's types). */
type ServiceWorkerHost = { navigator: { serviceWorker: { controller: unknown } } };

try {
  const admin = (await call<Login>('/api/login', ADMIN)).partner.token;
  const approve = async (path: string, person: object) => {
    const { _id } = await call<{ _id: string }>(path, person);
    await call(`/api/admin/registration/${_id}/status`, { status: 'approved' }, admin, 'PUT');
  };
  const partner = samplePartner();
  await approve('/api/partners/register', partner);
  const partnerToken = (await call<Login>('/api/login', partner)).partner.token;
  // Two courses with a round each: the offline scans in one (a browser whose network is only
  // emulated as offline may still send its queue when it closes), the online ones in the other.
  const roomFor = async (topic: string) => {
    const { _id: course } = await call<{ _id: string }>(
      '/api/admin/createcourse',
      { courseTopic: topic, courseDescription: 'Camera to banner', status: 'public', maxPeople: 0 },
      partnerToken,
    );
    const { round } = await call<{ round: { _id: string } }>(
      `/api/admin/courses/${course}/rounds`,
      { roundStartTime: new Date().toISOString(), roundEndTime: new Date(Date.now() + 3600_000).toISOString() },
      partnerToken,
    );
    return { course, url: `${portal.url}/courses/${course}/rounds/${round._id}` };
  };
  const rooms = { online: await roomFor('Bench online'), offline: await roomFor('Bench offline') };
  const members = Array.from({ length: SCANS }, (_, i) => sampleMember({ fullName: `Bench Member ${i + 1}` }));
  const tokens: string[] = [];
  for (const member of members) {
    await approve('/api/members/register', member);
    tokens.push((await call<Login>('/api/login', member)).partner.token);
    for (const room of Object.values(rooms)) await call(`/api/courses/${room.course}/enroll`, {}, tokens.at(-1));
  }

  const dir = mkdtempSync(join(tmpdir(), 'bench-camera-'));
  /**
   * One pass shown to a fresh browser's camera. Offline: the round page is opened once online
   * with the camera on a white wall (so the service worker keeps the round), then the browser
   * goes offline, the pass is put before the camera and the page opens again from the service
   * worker, and the page decides alone (the scan is never sent: the browser is closed).
   */
  const measure = async (token: string, video: string, offline: boolean): Promise<number> => {
    const { code } = await call<{ code: string }>('/api/members/me/pass', undefined, token, 'GET');
    // A phone held so the pass fills most of the view, as people do.
    const showPass = async () => writeFileSync(video, await passVideo(code));
    // Offline, the camera sees a white wall until the browser is offline (Chromium reads the file
    // each time the camera opens), so nothing can be scanned online first.
    if (offline) writeFileSync(video, await blankY4m());
    else await showPass();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...FLAGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['camera'], { origin: portal.url });
      const page = await context.newPage();
      const said: string[] = [];
      page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
      page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
      await page.goto(`${portal.url}/login`);
      await page.locator('input[name=username]').fill(partner.username);
      await page.locator('input[name=password]').fill(partner.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(/\/partner$/);
      if (offline) {
        await page.goto(rooms.offline.url);
        await page.locator('.round-page h1').waitFor();
        // A function, not a string: the portal's Content-Security-Policy forbids eval, which
        // Playwright needs for a string it has to poll (found: 2 runs in 40 failed so).
        await page.waitForFunction(
          () => Boolean((globalThis as unknown as ServiceWorkerHost).navigator.serviceWorker.controller),
          undefined,
          { timeout: 20_000 },
        );
        await page.reload(); // the round's answer is now kept by the service worker
        await page.locator('.round-page h1').waitFor();
        await context.setOffline(true);
        await showPass();
        await page.reload();
      } else {
        await page.goto(rooms.online.url);
      }
      // In the page (a string: the benchmarks are compiled without the DOM's types).
      const timed = page.evaluate<number>(`new Promise((resolve, reject) => {
        let playing = null;
        const deadline = performance.now() + 30000;
        const tick = () => {
          const view = document.querySelector('.scanner-view video');
          if (playing === null && view && !view.paused && view.readyState >= 2) playing = performance.now();
          const shown = document.querySelector('[data-testid=scan-outcome] strong')?.textContent ?? '';
          // Offline, the banner must be the page's own decision (marked), not a server's answer.
          const decided = shown.startsWith('\u2713') && (!${offline} || document.querySelector('[data-testid=offline-mark]'));
          if (playing !== null && decided) return resolve(performance.now() - playing);
          if (performance.now() > deadline) return reject(new Error('no banner ${offline ? 'offline' : 'online'}; it shows "' + shown + '"'));
          setTimeout(tick, 2);
        };
        tick();
      })`);
      return await timed.catch(async (error: unknown) => {
        const shot = join(dir, `failed-${offline ? 'offline' : 'online'}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        const online = await page.evaluate('navigator.onLine').catch(() => '?');
        throw new Error(`${String(error)} (the page: ${shot}; onLine ${online}; console: ${said.join(' | ')})`);
      });
    } finally {
      await browser.close();
    }
  };

  const times = { online: [] as number[], offline: [] as number[] };
  for (const [i, token] of tokens.entries()) {
    times.offline.push(await measure(token, join(dir, `pass-${i}-offline.y4m`), true));
    times.online.push(await measure(token, join(dir, `pass-${i}.y4m`), false));
  }
  console.log(`Camera to banner on the round page, ${tokens.length} passes each way (Chromium, fake camera):`);
  for (const [label, list] of Object.entries(times)) {
    list.sort((a, b) => a - b);
    const [median, p95] = [percentile(list, 0.5), percentile(list, 0.95)];
    console.log(`  ${label.padEnd(7)} median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`);
  }
  console.log(
    `  beside them, the scanner's own pace: it looks at the camera 10 times a second (up to 100 ms before a first look)`,
  );
} finally {
  await portal.stop();
}
