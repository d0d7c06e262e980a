import { parentPort, workerData } from 'node:worker_threads';
import { connectPostgres } from '@portal/platform/store/postgres';
import { threadError } from '@portal/platform/threads/typescript-worker';
import { PROJECTOR_THREAD_APPLICATION, type ThreadStart } from './messages.ts';
import { serveProjector } from './serve-projector.ts';

/**
 * The projector in a thread of its own on PostgreSQL (projector-thread.ts): its own connections,
 * its own event loop, so its batches never queue behind the requests of the portal's thread.
 */
const port = parentPort!;
const start = workerData as ThreadStart;
// Named, so pg_stat_activity tells its connections from the requests' (a URL; any other form as given).
const connectionString = URL.canParse(start.connectionString!)
  ? (() => {
      const url = new URL(start.connectionString!);
      url.searchParams.set('application_name', PROJECTOR_THREAD_APPLICATION);
      return url.toString();
    })()
  : start.connectionString!;
const db = connectPostgres({
  connectionString,
  max: 2,
  onError: (error) => port.postMessage({ kind: 'error', error: threadError(error) }),
});
await serveProjector(port, db, start, async (failed) => {
  await db.close().catch(() => {});
  if (failed) process.exit(1);
  port.close();
});
