// One service of the production shape, named by its source: `node deploy/scripts/service.mjs
// command-api/src/server.ts` (production.sh, the systemd units and the images run each so). It runs
// from the portal's bundle (server-build.mjs, made first when missing or older than its sources),
// which loads in about half the time of its TypeScript modules through tsx's loader (docs/
// performance.md, machine AA), in this process, so a signal sent to it reaches the service; from
// its sources through tsx when the code cannot be bundled (a read-only checkout without a bundle).
// Plain JavaScript: it runs before anything is built.
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVICES, markInUse, serviceProgram } from './server-build.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const program = process.argv[2];
if (!SERVICES.includes(program)) {
  console.error(`usage: node deploy/scripts/service.mjs <${SERVICES.join(' | ')}>`);
  process.exit(2);
}
const bundled = await serviceProgram(program);
if (bundled) {
  // Its bundle stays while it runs, however long (a later build removes earlier bundles not in use).
  try {
    markInUse(bundled, process.pid);
  } catch {
    // The bundle cannot be written (an image's, a checkout of another user's): no build by this
    // user can remove it either.
  }
  process.setSourceMapsEnabled(true); // a stack names the sources, not the bundle's files
  await import(pathToFileURL(bundled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, program)).href);
}
