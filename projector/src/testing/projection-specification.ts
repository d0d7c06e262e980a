import { afterAll, beforeAll } from 'vitest';
import type { NewEvent } from '@portal/contracts/envelope';
import { START, type EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, pgliteDatabase } from '@portal/platform/testing/databases';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { applyBatch } from '../apply.ts';
import { prepareReadModels } from '../read-models.ts';
import { projections } from '../projections/index.ts';

/**
 * Given these events, then these rows: a read model tested on PGlite through the projector's own
 * batch step (every projection, in order, with the checkpoint), read back through the views the
 * query side reads. Each `given` appends to the log and applies what is new.
 */
export function projectionSpecification() {
  const state = {} as { db: SqlDatabase; store: EventStore; drop: () => Promise<void> };
  beforeAll(async () => {
    Object.assign(state, await openEventStore(pgliteDatabase));
    await prepareReadModels(state.db, 'rm', projections);
    await unlockReadModels(state.db);
  });
  afterAll(() => state.drop());
  return {
    get db() {
      return state.db;
    },
    async given(...streams: [streamId: string, events: NewEvent[]][]): Promise<void> {
      for (const [streamId, events] of streams) {
        await state.store.append(streamId, events, { expectedRevision: 'any' });
      }
      await applyBatch(state.db, 'rm', projections, await state.store.readAll(START, 100_000));
    },
    rows: <Row>(sql: string, params: unknown[] = []) => state.db.query<Row>(sql, params),
  };
}
