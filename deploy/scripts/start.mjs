// `npm start`: runs the whole portal in one process (deploy/src/embedded.ts) and, meanwhile,
// builds the console when its build is missing or older than its sources. Plain JavaScript: it runs before
// anything is built.
import { spawn } from 'node:child_process';
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

const stale = !existsSync(built) || statSync(built).mtimeMs < Math.max(...sources.map(newest));

// The portal starts while the console builds (its database takes seconds to open the first time):
// it waits for word from here before serving the console's files (PORTAL_CONSOLE_BUILD).
// Node with tsx's loader, not tsx's command (which starts a second Node to run it): a tenth of a
// second less on every start.
const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'deploy/src/embedded.ts')], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: stale ? { ...process.env, PORTAL_CONSOLE_BUILD: 'pending' } : process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// A failed build stops the portal; `npm start` then fails too, whatever the portal's own exit.
let buildFailed = null;
child.on('exit', (code, signal) => process.exit(buildFailed ?? code ?? (signal ? 1 : 0)));

if (stale) {
  console.log('Building the console (once, or after its sources changed)...');
  // Vite itself, not through npm: a second less on every first start.
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  const build = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: join(root, 'console'),
    stdio: 'inherit',
  });
  build.on('exit', (code) => {
    if (code === 0) {
      child.send('console-built');
      return;
    }
    console.error('The console could not be built: the portal is stopped.');
    buildFailed = code || 1;
    child.kill('SIGTERM');
  });
}
