import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '@portal/platform/store/port';
import type { Sql, SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, testDatabases } from '@portal/platform/testing/databases';
import type { Projection } from '../src/projection.ts';
import { startProjector } from '../src/projector.ts';

/**
 * A read model whose projection cannot apply an event must not stop the others: it is set aside
 * at the event it failed on and reported (health: which projection, which position, which error),
 * the others keep up, and once the cause is gone it catches up by itself, applying every event
 * exactly once. Before, one such event stopped every read model for good.
 */
const counting = (name: string, poisoned: { now: boolean }): Projection => ({
  name,
  version: 1,
  async createTables(sql: Sql, schema: string) {
    await sql.query(`CREATE TABLE IF NOT EXISTS ${schema}.${name} (position bigint PRIMARY KEY)`);
  },
  async apply(sql, schema, event) {
    if (!event.streamId.startsWith('isolation-')) return;
    if (poisoned.now && (event.data as { poison?: boolean }).poison) throw new Error(`${name} cannot apply this`);
    // A primary key: applying an event twice would fail here, not count twice quietly.
    await sql.query(`INSERT INTO ${schema}.${name} (position) VALUES ($1)`, [event.position]);
  },
});

describe.each(testDatabases())('a failing projection on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
  });
  afterAll(() => drop());
  let firstPoison = 0;

  const positions = async (table: string) =>
    (await db.query<{ position: string }>(`SELECT position::text FROM rm.${table} ORDER BY position`)).map((row) =>
      Number(row.position),
    );
  const append = async (n: number, poison = false) =>
    (
      await store.append(`isolation-${n}`, [{ type: 'Counted', schemaVersion: 1, data: { n, poison } }], {
        expectedRevision: 'no_stream',
      })
    ).position;

  it('sets the failing one aside, keeps the others going, reports it, and resumes it exactly once', async () => {
    const poisoned = { now: true };
    const projector = await startProjector({
      source: store,
      target: db,
      projections: [
        counting('steady', poisoned),
        counting('fragile', {
          get now() {
            return poisoned.now;
          },
        }),
      ],
      pollMs: 50,
      retryMs: { first: 50, max: 200 },
    });
    try {
      const before = [await append(1), await append(2)];
      const bad = await append(3, true);
      firstPoison = bad;
      const after = [await append(4), await append(5)];
      await expect.poll(async () => (await projector.health()).lagEvents, { timeout: 5000 }).toBe(0);
      // `steady` threw too on the poisoned event: both are set aside, yet the checkpoint moved on.
      const health = await projector.health();
      expect(health.running).toBe(true);
      // Set aside together, so listed by name.
      expect(health.failing.map((fault) => [fault.projection, fault.position])).toEqual([
        ['fragile', bad],
        ['steady', bad],
      ]);
      expect(health.failing[1]!.error).toContain('steady cannot apply this');
      expect(health.failing[1]!.attempts).toBeGreaterThanOrEqual(1);
      // Rolled back for the whole batch it failed in: what it has is some of what came before.
      const applied = await positions('steady');
      expect(applied.every((position) => before.includes(position))).toBe(true);

      // Still failing: it retries with back-off and stays where it was.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect((await projector.health()).failing[0]!.attempts).toBeGreaterThan(1);
      expect(await positions('fragile')).toEqual(applied);

      poisoned.now = false;
      await expect.poll(async () => (await projector.health()).failing, { timeout: 5000 }).toEqual([]);
      const all = [...before, bad, ...after];
      expect(await positions('steady')).toEqual(all);
      expect(await positions('fragile')).toEqual(all);
      // And it follows the log as before.
      const later = await append(6);
      await expect.poll(() => positions('fragile'), { timeout: 5000 }).toEqual([...all, later]);
    } finally {
      await projector.stop();
    }
  });

  it('lets the others go on when only one projection fails', async () => {
    await db.query(`DROP SCHEMA rm CASCADE`);
    const broken = { now: true };
    const projector = await startProjector({
      source: store,
      target: db,
      projections: [counting('healthy', { now: false }), counting('broken', broken)],
      pollMs: 50,
      retryMs: { first: 50, max: 200 },
    });
    try {
      await append(7, true);
      const next = await append(8);
      await expect.poll(() => positions('healthy'), { timeout: 5000 }).toContain(next);
      expect((await projector.health()).failing.map((fault) => fault.projection)).toEqual(['broken']);
      // Read again from the start, it stops at the first event it cannot apply.
      expect((await projector.health()).failing[0]!.position).toBe(firstPoison);
      broken.now = false;
      await expect.poll(async () => (await projector.health()).failing, { timeout: 5000 }).toEqual([]);
      expect(await positions('broken')).toEqual(await positions('healthy'));
    } finally {
      await projector.stop();
    }
  });
});
