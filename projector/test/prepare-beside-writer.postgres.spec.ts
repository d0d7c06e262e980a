import { describe, expect, it } from 'vitest';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { freshPostgres } from '@portal/platform/testing/postgres-suite';
import { projections } from '../src/projections/index.ts';
import { prepareReadModels } from '../src/read-models.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`\n!!! ${skip}\n`);

/**
 * A projector starting beside a running one prepares every read-model table while the other
 * writes them. Preparing took a share lock on every indexed table (CREATE INDEX IF NOT EXISTS
 * does, even when the index is there), so it waited behind the writer's open batch, and once
 * deadlocked with it in the production shape's fault test. Tables already made take no such lock.
 */
describe.skipIf(skip !== null)('preparing read models beside a running projector (PostgreSQL)', () => {
  const postgres = freshPostgres();

  it('does not wait for a batch that holds write locks on the tables it prepares', async () => {
    const { db } = postgres;
    await prepareReadModels(db, 'rm_beside', projections);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // A batch of the running projector: row-exclusive locks on tables with indexes, kept open.
    const batch = db.transaction(async (tx) => {
      for (const table of ['courses', 'rounds', 'calendar_rounds', 'scan_attempts', 'notifications']) {
        await tx.query(`LOCK TABLE rm_beside.${table} IN ROW EXCLUSIVE MODE`);
      }
      locked();
      await held;
    });
    await lockTaken;
    try {
      const prepared = prepareReadModels(db, 'rm_beside', projections).then(() => 'prepared');
      const waited = new Promise((resolve) => setTimeout(() => resolve('waited behind the batch'), 5_000));
      expect(await Promise.race([prepared, waited])).toBe('prepared');
    } finally {
      release();
      await batch;
    }
  });
});
