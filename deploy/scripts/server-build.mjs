// The portal's code as plain JavaScript, for `npm start` (start.mjs) and the production shape's
// services (service.mjs): bundled by esbuild from deploy/src/embedded.ts, the entries of the
// threads it starts and each service's, made when missing or older than any file it was made from
// (or than this recipe), under node_modules/.cache.
// Run from its sources, the portal loads about 400 TypeScript modules through tsx's loader, whose
// hooks run in a thread of their own on Node 20 and answer each import by a round trip: loading
// them took 1.9 s where the bundle takes 0.9 s (docs/performance.md, machine AA), in the main
// thread and again in each worker thread. Only our own code is bundled; every package is imported
// from node_modules as Node resolves it. Plain JavaScript: it runs before anything is built.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const cache = join(root, 'node_modules/.cache/portal-server');
const current = join(cache, 'current.json');
const recipe = fileURLToPath(import.meta.url);

/** The services of the production shape, each a program of its own (deploy/scripts/service.mjs runs one). */
export const SERVICES = [
  'command-api/src/server.ts',
  'query-api/src/server.ts',
  'projector/src/server.ts',
  'relay/src/server.ts',
];

/**
 * Every module a thread of the portal starts from: the portal itself, each thread's entry
 * (platform/src/threads/bundle.ts finds a thread's bundled entry by the same path), and each
 * service of the production shape.
 */
const ENTRIES = [
  'deploy/src/embedded.ts',
  'platform/src/store/pglite-worker.ts',
  'projector/src/thread/beside-pglite.ts',
  'projector/src/thread/worker.ts',
  ...SERVICES,
];

/** What decides the bundle beyond its inputs: how each workspace maps its names to files. */
const settings = () => [
  recipe,
  join(root, 'tsconfig.base.json'),
  ...readdirSync(root)
    .map((name) => join(root, name, 'package.json'))
    .filter(existsSync),
];

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Infinity);

/** The bundle in use, or null when there is none or a file it was made from changed since. */
function upToDate() {
  if (!existsSync(current)) return null;
  const made = JSON.parse(readFileSync(current, 'utf8'));
  const entry = join(cache, made.dir, 'deploy/src/embedded.js');
  if (!existsSync(entry)) return null;
  const built = statSync(current).mtimeMs;
  const sources = [...made.inputs.map((input) => join(root, input)), ...settings()];
  return sources.every((path) => mtime(path) <= built) ? entry : null;
}

/**
 * Every `import.meta` of our code as it is in its source file, so that a module finds its files
 * (the console's build, the database's snapshot, fonts, a thread's entry) where it did before.
 */
const sourceLocations = {
  name: 'source-locations',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const values = {
        url: JSON.stringify(pathToFileURL(args.path).href),
        dirname: JSON.stringify(dirname(args.path)),
        filename: JSON.stringify(args.path),
      };
      const contents = text.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => values[key]);
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : args.path.match(/\.[cm]?ts$/) ? 'ts' : 'js' };
    });
  },
};

/**
 * Our workspaces (@portal/*) bundled; every package left to Node, imported by the file esbuild
 * finds for it from the importing module (a package installed in one workspace's node_modules
 * only, as ical-generator is in query-api's, could not be found from the cache's folder by name).
 */
const packagesFromNodeModules = {
  name: 'packages-from-node-modules',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@portal/') || args.pluginData?.own) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { own: true },
      });
      if (found.errors.length > 0) return { errors: found.errors };
      return { path: pathToFileURL(found.path).href, external: true };
    });
  },
};

/**
 * What the bundle was made from, as one digest of its inputs' paths and contents: the same for a
 * bundle made again from unchanged sources (a file saved as it was, a checkout), so what is made
 * from the code, such as the embedded database's schema snapshot (deploy/src/schema-snapshot.ts),
 * is found again by it.
 */
function contentKeyOf(inputs) {
  const hash = createHash('sha256');
  for (const input of [...inputs].sort())
    hash
      .update(`${input}\0`)
      .update(readFileSync(join(root, input)))
      .update('\0');
  return hash.digest('hex').slice(0, 32);
}

/** The content key (contentKeyOf) of the bundle in use, or null when there is none. */
export function contentKey() {
  return existsSync(current) ? (JSON.parse(readFileSync(current, 'utf8')).key ?? null) : null;
}

/** Builds the bundle in a folder of its own, then names it the one in use (whole or not at all). */
async function build() {
  const esbuild = await import('esbuild');
  const dir = `${Date.now().toString(36)}-${process.pid}`;
  const out = join(cache, dir);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outbase: root,
    outdir: out,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    // The threads' code tells from this that it runs bundled (platform/src/threads/bundle.ts).
    define: { __PORTAL_BUNDLE__: JSON.stringify({ root, out }) },
    plugins: [sourceLocations, packagesFromNodeModules],
  });
  await esbuild.stop(); // its service process is not needed again
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));
  const key = contentKeyOf(inputs);
  writeFileSync(join(out, 'content-key'), key);
  const partial = `${current}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify({ dir, inputs, key }));
  renameSync(partial, current);
  removeOldBundles(dir);
  return join(out, 'deploy/src/embedded.js');
}

/** The folder of a bundle's files, from one of its entries (deploy/src/embedded.js, a service's). */
const bundleFolder = (entry) => join(cache, relative(cache, entry).split(sep)[0]);

/**
 * Records that a process (the portal started by start.mjs, a service by service.mjs) runs from this
 * bundle: it may start a thread from the bundle's files at any time, so they stay while it lives,
 * however long that is.
 */
export function markInUse(entry, pid) {
  const users = join(bundleFolder(entry), 'in-use');
  mkdirSync(users, { recursive: true });
  writeFileSync(join(users, String(pid)), '');
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM'; // it lives, as another user's
  }
};

/** Whether a process named in the bundle's in-use folder still runs. */
function inUse(folder) {
  const users = join(folder, 'in-use');
  return existsSync(users) && readdirSync(users).some((name) => alive(Number(name)));
}

/**
 * Earlier bundles, but for any in use by a running portal and any made or used in the last ten
 * minutes (another build may still be writing its folder, or a process be about to mark it).
 */
function removeOldBundles(kept) {
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (name === kept || !statSync(path).isDirectory()) continue;
    if (Date.now() - statSync(path).mtimeMs > 10 * 60_000 && !inUse(path))
      rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The bundled portal's entry (deploy/src/embedded.js in the cache), built first when missing or
 * stale; null, with a warning, when it cannot be built (the portal then runs from its sources).
 */
export async function serverEntry() {
  try {
    mkdirSync(cache, { recursive: true });
    return upToDate() ?? (await build());
  } catch (error) {
    console.warn(`The portal's code could not be bundled (it runs from its sources): ${error.message}`);
    return null;
  }
}

/**
 * The bundled module of a service of the production shape (one of SERVICES, as its source's path
 * from the clone's folder), the bundle built first when missing or stale; null when the code
 * cannot be bundled (the service then runs from its sources).
 */
export async function serviceProgram(program) {
  if (!SERVICES.includes(program)) throw new Error(`${program} is not a service (${SERVICES.join(', ')})`);
  const entry = await serverEntry();
  return entry ? join(bundleFolder(entry), program.replace(/\.ts$/, '.js')) : null;
}

// Run alone (production.sh, an image's build): makes the bundle when missing or stale.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serverEntry();
