import { readCheckpoint } from '@portal/platform/read-models/checkpoint';
import { readAllAfter } from '@portal/platform/store/event-store';
import { type EventStore, START } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import type { Projection } from './projection.ts';
import { applyBatch, applyBatchIn } from './apply.ts';
import { prepareReadModels } from './read-models.ts';

const BATCH = 1000;

export interface RebuildOptions {
  /** The log; it must live in the same database as the read models (true of every setup here). */
  store: EventStore;
  db: SqlDatabase;
  projections: readonly Projection[];
  schema?: string;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Rebuilds every read model from the log into fresh tables beside the live ones, then swaps them
 * in: the live read models keep answering until the new ones have caught up. The swap locks the
 * live checkpoint, so a running projector waits, then carries on from the rebuilt checkpoint.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<{ events: number }> {
  const live = options.schema ?? 'rm';
  const next = `${live}_next`;
  const { db, store, projections } = options;
  await db.query(`DROP SCHEMA IF EXISTS ${next} CASCADE`);
  await prepareReadModels(db, next, projections);

  let total = (await store.lagBehind(START)).events;
  let done = 0;
  options.onProgress?.(done, total);
  for (;;) {
    const batch = await store.readAll(await readCheckpoint(db, next), BATCH);
    if (batch.length === 0) break;
    await applyBatch(db, next, projections, batch);
    done += batch.length;
    total = Math.max(total, done);
    options.onProgress?.(done, total);
  }

  await prepareReadModels(db, live, []);
  await db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${live}.checkpoints IN ACCESS EXCLUSIVE MODE`);
    for (;;) {
      const batch = await readAllAfter(tx, await readCheckpoint(tx, next), BATCH);
      if (batch.length === 0) break;
      await applyBatchIn(tx, next, projections, batch);
      done += batch.length;
    }
    await tx.query(`DROP SCHEMA ${live} CASCADE`);
    await tx.query(`ALTER SCHEMA ${next} RENAME TO ${live}`);
  });
  options.onProgress?.(done, Math.max(total, done));
  return { events: done };
}
