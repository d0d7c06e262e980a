import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Set by esbuild when `npm start` runs the portal from its bundle (deploy/scripts/server-build.mjs):
 * the clone's folder and the bundle's. Undefined when the portal runs from its sources (tsx, vitest).
 */
declare const __PORTAL_BUNDLE__: { root: string; out: string } | undefined;

/**
 * The bundled module built from the TypeScript module `entry` (a thread's entry), or null when the
 * portal runs from its sources. A thread's entry missing from the bundle is a mistake in the
 * bundle's recipe (its ENTRIES), said at once rather than run from a file that is not there.
 */
export function bundledEntry(entry: URL): URL | null {
  if (typeof __PORTAL_BUNDLE__ === 'undefined') return null;
  const { root, out } = __PORTAL_BUNDLE__;
  const path = `${out}/${relative(root, fileURLToPath(entry)).replace(/\.ts$/, '.js')}`;
  if (!existsSync(path)) throw new Error(`${relative(root, fileURLToPath(entry))} is not among the bundle's entries`);
  return pathToFileURL(path);
}

/** Loads the TypeScript module `entry` in this thread: its bundled module, or the module through tsx. */
export async function importModule(entry: URL | string): Promise<unknown> {
  const url = typeof entry === 'string' ? new URL(entry) : entry;
  const bundled = bundledEntry(url);
  if (bundled) return import(bundled.href);
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(url.href, import.meta.url);
}

let key: string | null | undefined;

/**
 * What the running bundle was made from (deploy/scripts/server-build.mjs, contentKeyOf): the same
 * whenever its sources are, so what was made from this code can be found by it; null when the
 * portal runs from its sources.
 */
export function bundleContentKey(): string | null {
  if (key !== undefined) return key;
  if (typeof __PORTAL_BUNDLE__ === 'undefined') return (key = null);
  const file = `${__PORTAL_BUNDLE__.out}/content-key`;
  return (key = existsSync(file) ? readFileSync(file, 'utf8').trim() : null);
}
