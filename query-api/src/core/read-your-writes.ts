import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PROGRESS_CHANNEL, readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { type EventStore, isAtOrBefore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';

const WAIT_MS = 2000;
/** A fallback when a NOTIFY is lost (the projector in another process, a dropped connection). */
const POLL_MS = 100;
/**
 * On a replica the NOTIFY comes from the primary, usually before the replica has replayed the
 * batch: nothing wakes the query when it has, so it looks this often.
 */
const REPLICA_POLL_MS = 10;

/**
 * The position a query must see: `?minPosition=` or the `X-Min-Position` header. Read from the
 * URL as sent, since a route's query schema may not name it (and then strips it).
 */
function wantedPosition(request: FastifyRequest): number | null {
  const fromQuery = new URLSearchParams(request.raw.url?.split('?')[1] ?? '').get('minPosition');
  const value = fromQuery ?? request.headers['x-min-position'];
  const position = Number(value);
  return Number.isSafeInteger(position) && position > 0 ? position : null;
}

/**
 * Read-your-writes: a command answers with the position of its last event; a query that passes it
 * waits (at most about 2 s) until the read models include that event, woken by the projector's
 * NOTIFY after each batch. The answer says whether they did in `X-Read-Position-Reached`. With
 * `replica`, `db` is a streaming replica and `store` the primary's log: the event is looked up
 * where it was written, and the replica's own checkpoint must reach it.
 */
export function installReadYourWrites(
  app: FastifyInstance,
  db: SqlDatabase,
  store: EventStore,
  options: { replica?: boolean } = {},
): void {
  const pollMs = options.replica ? REPLICA_POLL_MS : POLL_MS;
  const waiters = new Set<() => void>();
  const wakeAll = () => waiters.forEach((wake) => wake());
  const listening = db.listen(PROGRESS_CHANNEL, wakeAll, wakeAll);
  app.addHook('onClose', async () => (await listening)());

  const progressOrTimeout = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });

  app.addHook('preHandler', async (request, reply) => {
    const position = wantedPosition(request);
    if (position === null) return;
    const target = await store.checkpointAt(position);
    let reached = target === null; // no such event: nothing to wait for
    for (const deadline = Date.now() + WAIT_MS; !reached && Date.now() < deadline;) {
      reached = isAtOrBefore(target!, await readCheckpoint(db, 'rm'));
      if (!reached) await progressOrTimeout(Math.min(pollMs, deadline - Date.now()));
    }
    reply.header('x-read-position-reached', String(reached));
  });
}
