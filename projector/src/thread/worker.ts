import { parentPort, workerData } from 'node:worker_threads';
import { useDataKeys } from '@portal/platform/privacy/data-key';
import { createEventStore } from '@portal/platform/store/event-store';
import { connectPostgres } from '@portal/platform/store/postgres';
import { projections } from '../projections/index.ts';
import { type Projector, startProjector } from '../projector.ts';
import {
  type FromThread,
  PROJECTOR_THREAD_APPLICATION,
  type ThreadStart,
  type ToThread,
  threadError,
} from './messages.ts';

/**
 * The projector in a thread of its own (projector-thread.ts): its own connections, its own event
 * loop, so its batches never queue behind the requests of the portal's thread. Tells the portal
 * its state every STATE_MS and whenever asked for its health.
 */
const STATE_MS = 200;
const port = parentPort!;
const start = workerData as ThreadStart;
const post = (message: FromThread) => port.postMessage(message);

useDataKeys({
  current: Buffer.from(start.dataKeys.current),
  previous: start.dataKeys.previous.map((key) => Buffer.from(key)),
});
// Named, so pg_stat_activity tells its connections from the requests' (a URL; any other form as given).
const connectionString = URL.canParse(start.connectionString)
  ? (() => {
      const url = new URL(start.connectionString);
      url.searchParams.set('application_name', PROJECTOR_THREAD_APPLICATION);
      return url.toString();
    })()
  : start.connectionString;
const db = connectPostgres({
  connectionString,
  max: 2,
  onError: (error) => post({ kind: 'error', error: threadError(error) }),
});
let projector: Projector;
try {
  projector = await startProjector({
    source: createEventStore(db),
    target: db,
    projections,
    kafka: start.kafka,
    pollMs: start.pollMs,
    onError: (error) => post({ kind: 'error', error: threadError(error) }),
  });
} catch (error) {
  await db.close().catch(() => {});
  post({ kind: 'failed', error: threadError(error) });
  process.exit(1);
}
const tell = () => post({ kind: 'state', ...projector.state(), member: projector.member?.() ?? null });
tell();
const telling = setInterval(tell, STATE_MS);
post({ kind: 'started' });

port.on('message', (message: ToThread) => {
  if (message.kind === 'health') {
    projector.health().then(
      (health) => post({ kind: 'health', id: message.id, health }),
      (error: unknown) => post({ kind: 'health', id: message.id, health: null, error: threadError(error) }),
    );
    return;
  }
  clearInterval(telling);
  void (async () => {
    await projector.stop();
    await db.close();
    post({ kind: 'stopped' });
    port.close();
  })();
});
