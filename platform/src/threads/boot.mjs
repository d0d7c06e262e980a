// The entry of every worker thread started by typescript-worker.ts: plain JavaScript, since a
// worker thread does not inherit tsx's loader on Node 20 (tsx issue #354); tsx's own API loads
// the TypeScript module named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
