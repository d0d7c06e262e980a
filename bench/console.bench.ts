/**
 * The console as a newcomer meets it: `npm start` on a clone after `npm ci`, timed until the
 * portal says it is running: the console's build older than its sources, so the start makes it
 * first, as on a clean clone (npm ci's postinstall has made the portal's bundle and the snapshots
 * a new database starts from, which the benchmark makes first where they are missing, untimed).
 * Then Chromium opens the sign-in page and the JavaScript and CSS it loads are summed as gzip
 * would send them; and whether the camera scanner's code (html5-qrcode) is among them (it should
 * load on the round page only). Last, the start after a change to the portal's code as well, which
 * bundles it first. Prints each figure. `npx tsx bench/console.bench.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { freePort } from '@portal/deploy/testing/portal-process';
import { schemaSnapshotPath } from '@portal/platform/store/pglite-snapshot';
import { embeddedPortalEnv } from './measure.ts';

const root = resolve(import.meta.dirname, '..');
const port = await freePort();
/**
 * Makes a build older than its sources by moving the build's own time back, not the sources'
 * forward: a benchmark that touched the sources changed their times for every tool watching
 * them (an editor, a test run beside it). Nothing to do where there is no build yet.
 */
const aged = (path: string) => {
  const built = join(root, path);
  if (existsSync(built)) utimesSync(built, new Date(0), new Date(0));
};
/** What decides whether `npm start` builds: console-build.mjs and server-build.mjs compare these with their sources. */
const CONSOLE_BUILD = 'console/dist/index.html';
const BUNDLE_MADE = 'node_modules/.cache/portal-server/current.json';

// What npm ci's postinstall leaves: the bundle and the snapshots made by this code.
const build = (await import(join(root, 'deploy/scripts/server-build.mjs'))) as {
  serverEntry(): Promise<string | null>;
  contentKey(): string | null;
};
await build.serverEntry();
const key = build.contentKey();
if (!key || !existsSync(schemaSnapshotPath(key))) {
  await new Promise((done, fail) =>
    spawn(process.execPath, ['--import', 'tsx', join(root, 'deploy/scripts/pglite-snapshot.ts')], { stdio: 'inherit' })
      .on('exit', (code) => (code === 0 ? done(null) : fail(new Error(`the snapshots: exit ${code}`))))
      .on('error', fail),
  );
}

/**
 * `npm start` on a new data folder, timed until it says it is running; the portal is left running.
 * A clean clone's keeps its database in ./data, inside the clone: the benchmark's goes in a fresh
 * folder beside it, on the same disk. (In the system's temporary folder, creating the new
 * database's files took 1 ms a file on some machines here, against 0.1 to 0.4 ms in the clone: a
 * second of the start that a newcomer's does not have.)
 */
async function timedStart(): Promise<{ ms: number; portal: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(join(root, 'data-console-bench-'));
  const started = performance.now();
  const portal = spawn(process.execPath, [join(root, 'deploy/scripts/start.mjs')], {
    cwd: root,
    env: embeddedPortalEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'bench-admin-pw-1',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const ms = await new Promise<number>((done, fail) => {
    portal.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Course portal is running at')) done(performance.now() - started);
    });
    portal.stderr!.on('data', (chunk) => (output += chunk));
    portal.on('exit', (code) => fail(new Error(`npm start exited (${code}):\n${output}`)));
  });
  return { ms, portal, dataDir };
}

async function stop({ portal, dataDir }: { portal: ChildProcess; dataDir: string }) {
  const exited = new Promise((done) => portal.on('exit', done));
  process.kill(-portal.pid!, 'SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);
const metOrNot = (ms: number) => (Number(seconds(ms)) <= 5 ? 'met' : 'NOT met');

aged(CONSOLE_BUILD); // the console's build is older than its sources, as on a clone
const first = await timedStart();
try {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
  });
  /** What the sign-in page loads in a language: each JS and CSS file, as gzip would send it. */
  const signInPage = async (lang: 'en' | 'th') => {
    const context = await browser.newContext();
    await context.addInitScript(`localStorage.setItem('lang', '${lang}')`);
    const page = await context.newPage();
    const assets: { url: string; gzip: number; scanner: boolean }[] = [];
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (url.port !== String(port) || !/\.(js|css)$/.test(url.pathname)) return;
      const body = await response.body().catch(() => null);
      if (!body) return;
      assets.push({ url: url.pathname, gzip: gzipSync(body).length, scanner: body.includes('html5-qrcode') });
    });
    await page.goto(`http://127.0.0.1:${port}/login`, { waitUntil: 'networkidle' });
    await context.close();
    return assets;
  };
  const english = await signInPage('en');
  const thai = await signInPage('th');
  await browser.close();
  const kb = (assets: { gzip: number }[]) => (assets.reduce((sum, asset) => sum + asset.gzip, 0) / 1024).toFixed(1);
  console.log('Console benchmark (this machine)');
  console.log(
    `  npm start on a clone after npm ci, the console's first build included, until running: ${seconds(first.ms)} s (target <= 5 s: ${metOrNot(first.ms)})`,
  );
  console.log(
    `  sign-in page: ${kb(english)} KB of gzipped JS and CSS in ${english.length} files in English, ` +
      `${kb(thai)} KB in Thai (target <= 150 KB: ${Math.max(Number(kb(english)), Number(kb(thai))) <= 150 ? 'met' : 'NOT met'})`,
  );
  for (const asset of english.sort((a, b) => b.gzip - a.gzip).slice(0, 6)) {
    console.log(`    ${(asset.gzip / 1024).toFixed(1).padStart(6)} KB  ${asset.url}`);
  }
  const scanner = [...english, ...thai].some((asset) => asset.scanner);
  console.log(`  camera scanner code on the sign-in page: ${scanner ? 'YES' : 'no'}`);
} finally {
  await stop(first);
}

// After a change to the portal's code as well: the start bundles it before it starts it.
aged(CONSOLE_BUILD);
aged(BUNDLE_MADE);
const changed = await timedStart();
await stop(changed);
console.log(`  the same after a change to the portal's code (bundled first too): ${seconds(changed.ms)} s`);
