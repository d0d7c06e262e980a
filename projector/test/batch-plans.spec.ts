import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@portal/contracts/envelope';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import { GENERIC_PLANS_UP_TO, applyBatch } from '../src/apply.ts';
import type { Projection } from '../src/projection.ts';
import { prepareReadModels } from '../src/read-models.ts';

/**
 * A small batch runs its statements on generic plans, a large one on plans made for its values,
 * and the setting ends with the batch's transaction: the requests that use the same connection
 * next are planned as before.
 */
describe.each(testDatabases())('plans of a batch on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  const seen: string[] = [];
  const planner: Projection = {
    name: 'planner',
    version: 1,
    async createTables() {},
    async apply(sql) {
      const [row] = await sql.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`);
      seen.push(row!.mode);
    },
  };
  let position = 0;
  const events = (count: number): StoredEvent[] =>
    Array.from({ length: count }, () => ({
      position: ++position,
      transactionId: '1',
      streamId: `plan-${position}`,
      streamRevision: 0,
      type: 'Planned',
      schemaVersion: 1,
      data: {},
      metadata: {},
      createdAt: '2026-01-05T09:00:00.000Z',
    }));
  const modeNow = async () => {
    const [row] = await db.query<{ mode: string }>(`SELECT current_setting('plan_cache_mode') AS mode`);
    return row!.mode;
  };

  beforeAll(async () => {
    ({ db, drop } = await openEventStore(database));
    await prepareReadModels(db, 'rm', [planner]);
  });
  afterAll(() => drop());

  it('plans a live batch generically and a catching-up batch for its values, for that transaction only', async () => {
    seen.length = 0;
    await applyBatch(db, 'rm', [planner], events(3));
    expect(new Set(seen)).toEqual(new Set(['force_generic_plan']));
    expect(await modeNow()).toBe('auto');

    seen.length = 0;
    await applyBatch(db, 'rm', [planner], events(GENERIC_PLANS_UP_TO));
    expect(new Set(seen)).toEqual(new Set(['force_generic_plan']));

    seen.length = 0;
    await applyBatch(db, 'rm', [planner], events(GENERIC_PLANS_UP_TO + 1));
    expect(new Set(seen)).toEqual(new Set(['auto']));
    expect(await modeNow()).toBe('auto');
  });

  it('ends the setting with a batch that fails and is applied again alone', async () => {
    seen.length = 0;
    let thrown = false;
    const failing: Projection = {
      ...planner,
      name: 'failing-once',
      async apply(sql, schema, event, personal, batch) {
        await planner.apply(sql, schema, event, personal, batch);
        if (!thrown) {
          thrown = true;
          throw new Error('once');
        }
      },
    };
    await prepareReadModels(db, 'rm', [failing]);
    await applyBatch(db, 'rm', [failing], events(2));
    expect(thrown).toBe(true);
    expect(new Set(seen)).toEqual(new Set(['force_generic_plan']));
    expect(await modeNow()).toBe('auto');
  });
});
