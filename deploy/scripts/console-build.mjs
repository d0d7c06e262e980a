// The console's build, shared by `npm start` (start.mjs) and the production shape
// (production.sh): made when missing or older than its sources (or than this recipe), and always
// the production build, whatever NODE_ENV the caller has (found: under the tests, whose NODE_ENV
// is 'test', Vite built React's development build and Workbox's logging service worker).
// Plain JavaScript: it runs before anything is built. Run directly, it builds when stale and
// exits with the build's code.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'console/dist');
const built = join(dist, 'index.html');
const sources = [
  'console/src',
  'console/sw',
  'console/index.html',
  'console/vite.config.ts',
  'contracts/src',
  'query-api/src/contracts',
  'deploy/scripts/console-build.mjs',
].map((p) => join(root, p));

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether the console's build is missing or older than what it is made from. */
export const consoleStale = () => !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest));

/** Whether the process `pid` is still running. */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Puts a finished build in place of console/dist by renaming, so that console/dist is always a
 * whole build (its index.html, which tells a start the console is built, comes with every file it
 * loads and the service worker written after it), and two builds at once (two starts, or test
 * files starting portals side by side) never write into one folder: Vite empties its folder first,
 * and one of two builds sharing it failed. Of two builds of the same sources, the one put in place
 * last is kept.
 */
function putInPlace(made) {
  const aside = [];
  for (let attempt = 0; ; attempt++) {
    const old = `${dist}.old-${process.pid}-${Date.now()}-${attempt}`;
    try {
      renameSync(dist, old);
      aside.push(old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(made, dist);
      break;
    } catch (error) {
      // Another build was put in place between the two renames: move it aside in turn.
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || attempt >= 5) throw error;
    }
  }
  for (const old of aside) rmSync(old, { recursive: true, force: true });
}

/** Builds this process has started: two started in one millisecond still get folders of their own. */
let builds = 0;

/**
 * Builds the console for production with Vite itself (not through npm: a second less) into a
 * folder of its own beside console/dist, then puts it in place; resolves to the build's exit code.
 * Folders a build cut short left (its process gone, or its folder an hour old) are removed first.
 */
export function buildConsole() {
  console.log('Building the console (once, or after its sources changed)...');
  for (const name of readdirSync(join(root, 'console'))) {
    const left = /^dist\.(?:building|old)-(\d+)-/.exec(name);
    if (!left) continue;
    const folder = join(root, 'console', name);
    // Its process gone, or its id taken since by another (no build lasts an hour).
    if (!running(Number(left[1])) || Date.now() - statSync(folder).mtimeMs > 60 * 60_000)
      rmSync(folder, { recursive: true, force: true });
  }
  const made = `${dist}.building-${process.pid}-${Date.now()}-${++builds}`;
  const vite = spawn(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', made],
    { cwd: join(root, 'console'), stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  return new Promise((done) => {
    vite.on('error', () => done(1));
    vite.on('exit', (code) => {
      try {
        if (code === 0) putInPlace(made);
        done(code ?? 1);
      } catch (error) {
        console.error(`The console's build could not be put in place: ${error.message}`);
        done(1);
      } finally {
        rmSync(made, { recursive: true, force: true });
      }
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && consoleStale()) {
  process.exitCode = await buildConsole();
}
