import type { MessagePort } from 'node:worker_threads';
import type { StartBeside } from '@portal/platform/store/pglite-messages';
import type { ThreadStart } from './messages.ts';
import { serveProjector } from './serve-projector.ts';

/**
 * The projector in the embedded database's own thread (projector-thread.ts): PGlite's one
 * connection is here, so the projector's transactions run without waiting for the portal's
 * thread between statements. The database stays open when it stops: the portal closes it.
 */
export const startBeside: StartBeside = async (db, port: MessagePort, data) => {
  void serveProjector(port, db, data as ThreadStart, async () => port.close());
};
