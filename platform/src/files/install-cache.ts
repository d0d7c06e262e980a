import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * A folder of what `npm ci` makes once for every later start (the root package's postinstall):
 * `node_modules/.cache/<name>` at the project's root, or `override` (a test's own folder).
 */
export const installCacheFolder = (name: string, override?: string): string =>
  override ?? resolve(import.meta.dirname, '../../../node_modules/.cache', name);

/** Writes a file whole or not at all: beside its place, then renamed to it, so a reader never sees half of it. */
export function writeFileWhole(path: string, data: string | NodeJS.ArrayBufferView): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}
