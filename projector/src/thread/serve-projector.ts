import type { MessagePort } from 'node:worker_threads';
import { useDataKeys } from '@portal/platform/privacy/data-key';
import { createEventStore } from '@portal/platform/store/event-store';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { threadError } from '@portal/platform/threads/typescript-worker';
import { projections } from '../projections/index.ts';
import { type Projector, startProjector } from '../projector.ts';
import type { FromThread, ThreadStart, ToThread } from './messages.ts';

/** How often the projector's thread tells the portal its state. */
const STATE_MS = 200;

/**
 * Runs the projector on `db` in this thread for the portal's thread at the other end of `port`
 * (projector-thread.ts): tells it its state every STATE_MS and whenever asked for its health,
 * and stops when asked. `ended` runs once it has stopped, or could not start (after telling why).
 */
export async function serveProjector(
  port: Pick<MessagePort, 'postMessage' | 'on' | 'close'>,
  db: SqlDatabase,
  start: ThreadStart,
  ended: (failed: boolean) => Promise<void>,
) {
  const post = (message: FromThread) => port.postMessage(message);
  useDataKeys({
    current: Buffer.from(start.dataKeys.current),
    previous: start.dataKeys.previous.map((key) => Buffer.from(key)),
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
    post({ kind: 'failed', error: threadError(error) });
    return ended(true);
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
      post({ kind: 'stopped' });
      await ended(false);
    })();
  });
}
