// The projector thread's entry (projector-thread.ts): plain JavaScript, since a worker thread does
// not inherit tsx's loader on Node 20 (tsx issue #354); tsx's own API loads the TypeScript.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
