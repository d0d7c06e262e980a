// `npm ci` (the root package's postinstall): makes the snapshots a new embedded database starts
// from (platform/src/store/pglite-snapshot.ts): a freshly initialised one, and one with the
// portal's schema made by this code (deploy/src/schema-snapshot.ts), named by the content key of
// `npm start`'s bundle (deploy/scripts/server-build.mjs), which it makes first. Only speed-ups:
// should either fail, the install goes on, and a new database is made as before.
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeSnapshot, schemaSnapshotPath, snapshotPath } from '@portal/platform/store/pglite-snapshot';
import { makeSchemaSnapshot } from '../src/schema-snapshot.ts';

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

let started = performance.now();
try {
  await makeSnapshot();
  console.log(`A fresh embedded database's snapshot made in ${seconds(started)} s: ${snapshotPath()}`);
} catch (error) {
  console.warn(`No snapshot of a fresh embedded database (new ones will run initdb): ${(error as Error).message}`);
}

started = performance.now();
try {
  const recipe = './server-build.mjs';
  const build = (await import(recipe)) as { serverEntry(): Promise<string | null>; contentKey(): string | null };
  const key = (await build.serverEntry()) && build.contentKey();
  if (!key) throw new Error("npm start's bundle could not be made");
  const path = schemaSnapshotPath(key);
  await makeSchemaSnapshot(path);
  // Those made by earlier code (an install before a change) are found by nothing now.
  for (const name of readdirSync(dirname(path))) {
    if (name.startsWith('schema-') && name !== basename(path))
      rmSync(join(dirname(path), name), { recursive: true, force: true });
  }
  console.log(`A new database's schema snapshot made in ${seconds(started)} s: ${path}`);
} catch (error) {
  console.warn(`No schema snapshot (new databases will make their tables): ${(error as Error).message}`);
}
