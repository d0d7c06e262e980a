import { afterAll, beforeAll } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { PASS_WINDOW_MS } from '@portal/contracts/attendance/pass-code';
import { lanAddresses } from '@portal/deploy/local-tls';
import { type RunningPortal, startPortalProcess } from '@portal/deploy/testing/portal-process';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { certutilSkipReason, homeTrusting } from './fake-camera.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-results/screenshots');

/** Why the browser tests cannot run here, or null. In CI a missing Chromium is a failure, not a skip. */
export function chromiumSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `Chromium not found at ${CHROMIUM}: the browser tests are SKIPPED (apt-get install chromium, or run .ci/run).`;
  if (process.env.CI) throw new Error(`${reason} CI must run them.`);
  console.warn(`\n!!! ${reason}\n`);
  return reason;
}

/**
 * Debian's Chromium, headless; `extraArgs` add flags (a fake camera, say), `env` its environment
 * (a HOME whose certificate store trusts the portal's authority). Every page it opens is
 * watched for Content-Security-Policy violations: closing the browser fails with the list when
 * any screen did something the portal's policy forbids (an inline script, a foreign source).
 */
export async function launchChromium(
  extraArgs: readonly string[] = [],
  options: { env?: Record<string, string> } = {},
): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    env: options.env && { ...process.env, ...options.env },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs],
  });
  const violations: string[] = [];
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('console', (message) => {
      if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
        violations.push(`${message.location().url}: ${message.text()}`);
      }
    });
    return context;
  };
  const close = browser.close.bind(browser);
  browser.close = async (options) => {
    await close(options);
    if (violations.length > 0) {
      throw new Error(`Content-Security-Policy violations:\n${[...new Set(violations)].join('\n')}`);
    }
  };
  return browser;
}

export interface SignInOptions {
  lang?: 'en' | 'th';
  width?: number;
  theme?: 'light' | 'dark';
  /** The browser's time zone; the portal's own clock is the machine's. */
  timezoneId?: string;
}

/** A page in a fresh browser context, in the given language, width and theme, not signed in. */
export async function newPage(
  browser: Browser,
  { lang = 'en', width = 1280, theme = 'light', timezoneId }: SignInOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 1000 }, timezoneId });
  await context.addInitScript(
    ([l, th]) => {
      localStorage.setItem('lang', l!);
      localStorage.setItem('theme', th!);
    },
    [lang, theme],
  );
  return context.newPage();
}

/** A fresh page for a visitor (not signed in) at `url`. */
export async function visit(browser: Browser, url: string, options: SignInOptions = {}) {
  const page = await newPage(browser, options);
  await page.goto(url);
  return page;
}

/** A fresh browser context signed in through the login form, landed on the person's home. */
export async function signIn(
  browser: Browser,
  portalUrl: string,
  person: { username: string; password: string },
  options: SignInOptions = {},
): Promise<Page> {
  const page = await newPage(browser, options);
  await page.goto(`${portalUrl}/login`);
  await page.locator('input[name=username]').fill(person.username);
  await page.locator('input[name=password]').fill(person.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/(admin|e-market|partner)$/);
  return page;
}

/** What a test's setup sends to the portal's API: JSON in and out, as `token`'s holder when given. */
export function apiCaller(portalUrl: () => string) {
  return <T = { _id: string; partner: { token: string } }>(
    path: string,
    body?: unknown,
    token?: string,
    method = 'POST',
  ): Promise<T> =>
    fetch(`${portalUrl()}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((response) => response.json() as Promise<T>);
}

export type ApiCall = ReturnType<typeof apiCaller>;

/**
 * Registers partners (through the partner form) and members, and approves each as the admin, as
 * a test's setup; answers their ids by username.
 */
export async function registerApproved(
  call: ApiCall,
  adminToken: string,
  people: { partners?: readonly { username: string }[]; members?: readonly { username: string }[] },
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [path, list] of [
    ['/api/partners/register', people.partners ?? []],
    ['/api/members/register', people.members ?? []],
  ] as const) {
    for (const person of list) {
      const { _id } = await call(path, person);
      await call(`/api/admin/registration/${_id}/status`, { status: 'approved' }, adminToken, 'PUT');
      ids[person.username] = _id;
    }
  }
  return ids;
}

/**
 * A public course of `partnerToken`'s with one round starting in three seconds and lasting an
 * hour, `members` enrolled before it starts (so they are expected), answered once it has started.
 */
export async function roundStartingNow(
  call: ApiCall,
  partnerToken: string,
  members: readonly { username: string; password: string }[],
  topic: string,
): Promise<{ courseId: string; roundId: string; roundUrl: string }> {
  const courseId = (
    await call(
      '/api/admin/createcourse',
      { courseTopic: topic, courseDescription: topic, status: 'public', maxPeople: 0 },
      partnerToken,
    )
  )._id;
  const startsAt = Date.now() + 3000;
  const { round } = await call<{ round: { _id: string } }>(
    `/api/admin/courses/${courseId}/rounds`,
    { roundStartTime: new Date(startsAt).toISOString(), roundEndTime: new Date(startsAt + 3600_000).toISOString() },
    partnerToken,
  );
  for (const member of members) {
    await call(`/api/courses/${courseId}/enroll`, {}, (await call('/api/login', member)).partner.token);
  }
  if (Date.now() >= startsAt) throw new Error('enrolling took longer than the time before the round');
  await new Promise((resolve) => setTimeout(resolve, startsAt - Date.now() + 300));
  return { courseId, roundId: round._id, roundUrl: `/courses/${courseId}/rounds/${round._id}` };
}

/**
 * Why a phone at the machine's LAN address over https cannot be played here (no Chromium, no
 * certutil, no LAN address), or null; said loudly, as CI must run it.
 */
export function phoneOnLanSkipReason(): string | null {
  const reason = chromiumSkipReason() ?? certutilSkipReason() ?? (lanAddresses()[0] ? null : 'no LAN address here');
  if (reason) console.warn(`\n!!! ${reason}\n`);
  return reason;
}

/** How far the page scrolls sideways (0 when it fits the viewport). */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The first admin every browser test's portal starts with. */
export const ADMIN = { username: 'admin01', password: 'browser-admin-password' };

export interface PortalAndBrowserOptions {
  /** The portal's environment beyond the first admin; a function when it needs setting up first (an SMTP sink). */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  database?: 'postgres' | 'pglite';
  /** More Chromium flags (a fake camera). */
  chromiumFlags?: readonly string[];
  /** Chromium trusts the portal's local certificate authority, as a phone that installed it from /trust. */
  trustPortalAuthority?: boolean;
}

/**
 * The portal as a newcomer starts it (`npm start`; on PostgreSQL when DATABASE_URL is set, else
 * PGlite) with ADMIN as the first admin, and Chromium to look at it, for one describe block:
 * started before the block's own setup, stopped after its tests. `started` hands both to the
 * block (again after a restart). `stopForAWhile` stops the portal keeping its data and addresses,
 * and answers how to start it again there, as a portal that went away and came back.
 */
export function withPortalAndBrowser(
  started: (running: { portal: RunningPortal; browser: Browser }) => void,
  options: PortalAndBrowserOptions = {},
): { stopForAWhile(): Promise<() => Promise<RunningPortal>> } {
  let running: { portal: RunningPortal; browser: Browser } | undefined;
  const database = options.database ?? (postgresSkipReason() === null ? 'postgres' : 'pglite');
  let env: Record<string, string> = {};
  beforeAll(async () => {
    const more = typeof options.env === 'function' ? await options.env() : options.env;
    env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...more };
    const portal = await startPortalProcess({ database, env });
    const trusting = options.trustPortalAuthority && { HOME: homeTrusting(join(portal.dataDir, 'tls/ca.crt')) };
    const browser = await launchChromium(options.chromiumFlags, trusting ? { env: trusting } : {});
    running = { portal, browser };
    started(running);
  }, 180_000);
  afterAll(async () => {
    await running?.browser.close();
    await running?.portal.stop();
  });
  return {
    async stopForAWhile() {
      const gone = running!.portal;
      const { dataDir } = gone;
      const ports = { PORT: new URL(gone.url).port, HTTPS_PORT: String(gone.httpsPort) };
      await gone.stop({ keepData: true });
      return async () => {
        running!.portal = await startPortalProcess({ database, dataDir, env: { ...env, ...ports } });
        started(running!);
        return running!.portal;
      };
    },
  };
}

/**
 * Waits, when more than 20 s of the current 30 s pass window have gone, for the next one: a pass
 * code is accepted in its own window and the next, so one made after this lives at least 40 s
 * however slow the machine is before a camera reads it.
 */
export async function earlyInPassWindow(): Promise<void> {
  const into = Date.now() % PASS_WINDOW_MS;
  if (into > 20_000) await new Promise((resolve) => setTimeout(resolve, PASS_WINDOW_MS - into));
}

/** What each page watched by `watchConsole` said (its console and uncaught errors), for failures. */
const consoles = new WeakMap<Page, string[]>();

/** Keeps what `page` says from now on, so a camera test that fails can say what the page said. */
export function watchConsole(page: Page): void {
  const said: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'debug') said.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  consoles.set(page, said);
}

/**
 * Waits for the round page's banner to read `text` (a camera decodes in its own time). On a
 * timeout it fails saying what the page showed instead: the banner, the scanner (a camera problem,
 * or nothing), the camera's picture, whether the browser thought it was online, and the last
 * things the page said when it is watched.
 */
export async function waitForOutcome(page: Page, text: string, timeout = 30_000): Promise<void> {
  await page
    .getByTestId('scan-outcome')
    .getByText(text)
    .waitFor({ timeout })
    .catch(async (error: unknown) => {
      // In the page (a string: the tests are compiled without the DOM's types).
      const shown = await page
        .evaluate<Record<string, unknown>>(
          `(() => {
            const video = document.querySelector('.scanner-view video');
            return {
              banner: document.querySelector('[data-testid=scan-outcome]')?.textContent ?? '(none)',
              scanner: document.querySelector('.scanner')?.textContent ?? '(no scanner)',
              camera: video ? video.videoWidth + 'x' + video.videoHeight + (video.paused ? ' paused' : ' playing') : '(no video)',
              onLine: navigator.onLine,
            };
          })()`,
        )
        .catch((reason: unknown) => ({ unreadable: String(reason) }));
      const said = consoles.get(page)?.slice(-20) ?? '(not watched)';
      throw new Error(`the round page never showed "${text}": ${JSON.stringify({ ...shown, said })}`, {
        cause: error,
      });
    });
}

/**
 * Opens the round page at `url` as a phone does once, online, and again when the service worker
 * controls the page, so the worker keeps the round for a visit with no network.
 */
export async function openRoundOnce(page: Page, url: string, heading: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 20_000 });
  await page.reload(); // the round's data now comes through the service worker, which keeps it
  await page.getByRole('heading', { name: heading }).waitFor();
}
