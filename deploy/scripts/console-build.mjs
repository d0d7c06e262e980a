// The console's build, shared by `npm start` (start.mjs) and the production shape
// (production.sh): made when missing or older than its sources (or than this recipe), and always
// the production build, whatever NODE_ENV the caller has (found: under the tests, whose NODE_ENV
// is 'test', Vite built React's development build and Workbox's logging service worker).
// Plain JavaScript: it runs before anything is built. Run directly, it builds when stale and
// exits with the build's code.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = join(root, 'console/dist/index.html');
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

/** Builds the console for production with Vite itself (not through npm: a second less); the child. */
export function buildConsole() {
  console.log('Building the console (once, or after its sources changed)...');
  return spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'console'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && consoleStale()) {
  buildConsole().on('exit', (code) => process.exit(code ?? 1));
}
