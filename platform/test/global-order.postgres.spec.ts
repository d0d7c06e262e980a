import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@portal/contracts/envelope';
import { appendInTransaction, readAllAfter } from '../src/store/event-store.ts';
import { START } from '../src/store/port.ts';
import type { Sql } from '../src/store/sql.ts';
import { postgresSkipReason } from '../src/testing/databases.ts';
import { freshPostgres } from '../src/testing/postgres-suite.ts';

/** The reader everyone writes first: follow the position. It skips events; this file shows when. */
async function naiveReadAfter(db: Sql, position: number): Promise<StoredEvent[]> {
  const rows = await db.query<{ position_text: string; stream_id: string }>(
    'SELECT position::text AS position_text, stream_id FROM es.events WHERE position > $1 ORDER BY position',
    [position],
  );
  return rows.map((row) => ({ position: Number(row.position_text), streamId: row.stream_id }) as StoredEvent);
}

const skip = postgresSkipReason();
if (skip) console.warn(`\n!!! ${skip}\n`);

// PGlite has one connection, so transactions there never overlap: this needs real PostgreSQL.
describe.skipIf(skip !== null)('global order with transactions committing out of order (PostgreSQL)', () => {
  const postgres = freshPostgres();

  it('the naive position reader skips an event that the transaction-aware reader delivers', async () => {
    const { db, url } = postgres;
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    const slowTx: Sql = { query: async (text, params) => (await slow.query(text, params as unknown[])).rows };
    try {
      // The slow writer takes the lower position first and keeps its transaction open...
      await slow.query('BEGIN');
      const early = await appendInTransaction(slowTx, 'slow', [{ type: 'T', schemaVersion: 1, data: {} }], {
        expectedRevision: 'no_stream',
      });
      // ...while a fast writer takes a higher position and commits.
      const late = await db.transaction((tx) =>
        appendInTransaction(tx, 'fast', [{ type: 'T', schemaVersion: 1, data: {} }], { expectedRevision: 'no_stream' }),
      );
      expect(late.position).toBeGreaterThan(early.position);

      const naiveFirst = await naiveReadAfter(db, 0);
      const correctFirst = await readAllAfter(db, START, 100);
      // The naive reader has moved past the slow event's position; the correct one has waited.
      expect(naiveFirst.map((e) => e.streamId)).toEqual(['fast']);
      expect(correctFirst).toEqual([]);

      await slow.query('COMMIT');
      const naiveSecond = await naiveReadAfter(db, naiveFirst.at(-1)!.position);
      const correct = await readAllAfter(db, START, 100);
      expect(naiveSecond).toEqual([]); // the slow event is lost to the naive reader for good
      expect(correct.map((e) => e.streamId)).toEqual(['slow', 'fast']);
    } finally {
      await slow.end();
    }
  });

  it('a transaction left open elsewhere holds the reader back but never makes it skip', async () => {
    const { db, url } = postgres;
    const before = await readAllAfter(db, START, 1000);
    const idle = new pg.Client({ connectionString: url });
    await idle.connect();
    try {
      await idle.query('BEGIN');
      await idle.query('SELECT pg_current_xact_id()'); // takes a transaction id and holds it
      await db.transaction((tx) =>
        appendInTransaction(tx, 'after-idle', [{ type: 'T', schemaVersion: 1, data: {} }], {
          expectedRevision: 'no_stream',
        }),
      );
      expect(await readAllAfter(db, START, 1000)).toHaveLength(before.length);
      await idle.query('COMMIT');
      expect(await readAllAfter(db, START, 1000)).toHaveLength(before.length + 1);
    } finally {
      await idle.end();
    }
  });
});
