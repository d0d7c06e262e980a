import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readCheckpoint } from '@portal/events/read-models/checkpoint';
import { type EventStore, isAtOrBefore } from '@portal/events/store/port';
import type { Sql } from '@portal/events/store/sql';

const WAIT_MS = 2000;
const STEP_MS = 20;

/** The position a query must see: `?minPosition=` or the `X-Min-Position` header. */
function wantedPosition(request: FastifyRequest): number | null {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.minPosition;
  const value = fromQuery ?? request.headers['x-min-position'];
  const position = Number(value);
  return Number.isSafeInteger(position) && position > 0 ? position : null;
}

/**
 * Read-your-writes: a command answers with the position of its last event; a query that passes it
 * waits (at most about 2 s) until the read models include that event. The answer says whether
 * they did in `X-Read-Position-Reached`.
 */
export function installReadYourWrites(app: FastifyInstance, db: Sql, store: EventStore): void {
  app.addHook('preHandler', async (request, reply) => {
    const position = wantedPosition(request);
    if (position === null) return;
    const target = await store.checkpointAt(position);
    let reached = target === null; // no such event: nothing to wait for
    for (const deadline = Date.now() + WAIT_MS; !reached && Date.now() < deadline;) {
      reached = isAtOrBefore(target!, await readCheckpoint(db, 'rm'));
      if (!reached) await new Promise((resolve) => setTimeout(resolve, STEP_MS));
    }
    reply.header('x-read-position-reached', String(reached));
  });
}
