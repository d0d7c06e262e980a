// `npm ci` (the root package's postinstall): makes the snapshot a new embedded database starts
// from (platform/src/store/pglite-snapshot.ts). Only a speed-up: should it fail, the install goes
// on, and a new database is initialised as before.
import { performance } from 'node:perf_hooks';
import { makeSnapshot, snapshotPath } from '@portal/platform/store/pglite-snapshot';

const started = performance.now();
try {
  await makeSnapshot();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`A fresh embedded database's snapshot made in ${seconds} s: ${snapshotPath()}`);
} catch (error) {
  console.warn(`No snapshot of a fresh embedded database (new ones will run initdb): ${(error as Error).message}`);
}
