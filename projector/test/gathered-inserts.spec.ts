import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@portal/contracts/envelope';
import { column, createTable, defineTable } from '@portal/platform/read-models/table';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { openEventStore, pgliteDatabase } from '@portal/platform/testing/databases';
import { applyEvents } from '../src/apply.ts';
import type { Projection } from '../src/projection.ts';
import { prepareReadModels } from '../src/read-models.ts';

/**
 * Rows a projection queues with `batch.insert` are written together, one statement per table,
 * columns and conflict clause, and a table's rows with other columns or another clause are written
 * before the next are queued: whatever a batch queues, in whatever order, the table ends as it
 * would with each row written at once.
 */
const notes = defineTable('gathered_notes', {
  id: column<string>('text PRIMARY KEY'),
  body: column<string>('text NOT NULL'),
  tag: column<string | null>('text'),
});

const CLAUSES = ['', 'ON CONFLICT DO NOTHING', 'ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body'] as const;

interface Note {
  id: string;
  body: string;
  tag?: string | null;
  clause: number;
}

const gathering: Projection = {
  name: 'gathering',
  version: 1,
  async createTables(sql, schema) {
    await createTable(sql, schema, notes);
  },
  async apply(_sql, schema, event, _personal, batch) {
    const note = event.data as Note;
    const row =
      note.tag === undefined ? { id: note.id, body: note.body } : { id: note.id, body: note.body, tag: note.tag };
    await batch.insert(schema, notes, row, CLAUSES[note.clause]);
  },
};

describe('inserts gathered in a batch', () => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openEventStore(pgliteDatabase));
  });
  afterAll(() => drop());

  const events = (written: Note[]): StoredEvent[] =>
    written.map((data, i) => ({
      position: i + 1,
      transactionId: '1',
      streamId: `note-${i}`,
      streamRevision: 0,
      type: 'Note',
      schemaVersion: 1,
      data,
      metadata: {},
      createdAt: '2026-01-05T09:00:00.000Z',
    }));

  const rowsAfter = async (schema: string, batches: StoredEvent[][]) => {
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await prepareReadModels(db, schema, [gathering]);
    for (const batch of batches) {
      await db.transaction((tx) => applyEvents(tx, schema, [gathering], batch));
    }
    return db.query(`SELECT id, body, tag FROM ${schema}.gathered_notes ORDER BY id`);
  };

  it('leaves the same rows as one event per batch, whatever columns and clauses are mixed', async () => {
    // A plain insert only of an id nothing else uses (a second one would fail the projection).
    const note = fc
      .record({
        id: fc.constantFrom('a', 'b', 'c'),
        body: fc.string({ maxLength: 4 }),
        tag: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }),
        clause: fc.constantFrom(1, 2),
      })
      .map((n): Note => (n.tag === undefined ? { id: n.id, body: n.body, clause: n.clause } : n));
    const fresh = fc.record({ body: fc.string({ maxLength: 4 }), tag: fc.constantFrom(null, 'z') });
    const story = fc.array(
      fc.oneof(
        note,
        fresh.map((f) => ({ ...f, id: '', clause: 0 })),
      ),
      { maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(story, async (written) => {
        const numbered = written.map((n, i) => (n.clause === 0 ? { ...n, id: `fresh-${i}` } : n));
        const all = events(numbered);
        const together = await rowsAfter('gathered_one', [all]);
        const apart = await rowsAfter(
          'gathered_each',
          all.map((event) => [event]),
        );
        expect(together).toEqual(apart);
      }),
      { numRuns: 40 },
    );
  });
});
