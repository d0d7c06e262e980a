// `npm start`: builds the console when its build is missing or older than its sources, then runs
// the whole portal in one process (deploy/src/embedded.ts). Plain JavaScript: it runs before
// anything is built.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = join(root, 'console/dist/index.html');
const sources = [
  'console/src',
  'console/sw',
  'console/index.html',
  'console/vite.config.ts',
  'contracts/src',
  'query-api/src/contracts',
].map((p) => join(root, p));

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (!existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest))) {
  console.log('Building the console (once, or after its sources changed)...');
  // Vite itself, not through npm: a second less on every first start.
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'console'),
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const tsx = join(root, 'node_modules/.bin/tsx');
const child = spawn(tsx, [join(root, 'deploy/src/embedded.ts')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
