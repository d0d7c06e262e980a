// `npm start`: runs the whole portal in one process (deploy/src/embedded.ts) and, meanwhile,
// builds the console when its build is missing or older than its sources. Plain JavaScript: it runs before
// anything is built.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole, consoleStale } from './console-build.mjs';
import { markInUse, serverEntry } from './server-build.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const stale = consoleStale();
// The console's build, when there is one to make, starts first: it takes seconds, the portal's bundle a fraction of one.
const consoleBuilt = stale ? buildConsole() : null;

// The portal's own code bundled (server-build.mjs: seconds less than loading its TypeScript
// modules through tsx's loader in each of its threads), with source maps so that a stack names
// the sources; from its sources with tsx's loader (not tsx's command, which starts a second Node)
// if it cannot be bundled.
const bundled = await serverEntry();
const program = bundled ? ['--enable-source-maps', bundled] : ['--import', 'tsx', join(root, 'deploy/src/embedded.ts')];
// The portal starts while the console builds (its database takes seconds to open the first time):
// it waits for word from here before serving the console's files (PORTAL_CONSOLE_BUILD).
const child = spawn(process.execPath, program, {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: stale ? { ...process.env, PORTAL_CONSOLE_BUILD: 'pending' } : process.env,
});
if (bundled && child.pid) markInUse(bundled, child.pid);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// A failed build stops the portal; `npm start` then fails too, whatever the portal's own exit.
let buildFailed = null;
child.on('exit', (code, signal) => process.exit(buildFailed ?? code ?? (signal ? 1 : 0)));

void consoleBuilt?.then((code) => {
  if (code === 0) {
    child.send('console-built');
    return;
  }
  console.error('The console could not be built: the portal is stopped.');
  buildFailed = code || 1;
  child.kill('SIGTERM');
});
