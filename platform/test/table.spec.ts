import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQueryIndexes, setQueryIndexesAside } from '../src/read-models/query-indexes.ts';
import { createOpenFunction, readModelKey, sealText, unlockReadModels } from '../src/read-models/sealed-columns.ts';
import {
  type RowOf,
  column,
  createTable,
  defineTable,
  insertRow,
  insertRows,
  openRow,
  sealed,
  updateRows,
} from '../src/read-models/table.ts';
import { createEventStoreSchema } from '../src/store/schema.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { testDatabases } from '../src/testing/databases.ts';

/**
 * A read model's table declared once (read-models/ declares each): the DDL, the row a query
 * reads and the row the projector writes all come from the one declaration, on PGlite and
 * PostgreSQL; a column the declaration does not have is a type error (checked by `npm run check`).
 */
const notes = defineTable(
  'notes',
  {
    id: column<string>('text NOT NULL'),
    author: column<string>('text NOT NULL'),
    likes: column<number>('integer NOT NULL DEFAULT 0'),
    posted_at: column<Date>('timestamptz NOT NULL'),
    body: sealed.text(),
    meta: sealed.json<{ tags: string[] }>(),
  },
  { primaryKey: ['id'], indexes: { notes_by_author: 'author, posted_at' } },
);

describe.each(testDatabases())('declared read-model tables on $name', (database) => {
  let db: SqlDatabase;
  let drop: () => Promise<void>;
  let key: Buffer;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
    await createEventStoreSchema(db);
    await db.query(`CREATE SCHEMA IF NOT EXISTS table_test`);
    await createOpenFunction(db, 'table_test');
    await createTable(db, 'table_test', notes);
    key = await readModelKey(db);
    await unlockReadModels(db);
  });
  afterAll(() => drop());

  it('stores sealed columns under <name>_sealed and reads them opened through the view <name>', async () => {
    expect(notes.storedAs).toBe('notes_sealed');
    const row = {
      id: 'n1',
      author: 'somchai',
      posted_at: '2026-11-24T08:00:00.000Z',
      body: sealText(key, 'สวัสดี'),
      meta: sealText(key, JSON.stringify({ tags: ['a'] })),
    };
    await db.query(...insertRow('table_test', notes, row, 'ON CONFLICT (id) DO NOTHING'));
    await db.query(...insertRow('table_test', notes, row, 'ON CONFLICT (id) DO NOTHING'));
    await db.query(...updateRows('table_test', notes, { likes: 3 }, { id: 'n1', author: 'somchai' }));
    const rows = await db.query<RowOf<typeof notes>>(`SELECT * FROM table_test.notes`);
    expect(rows).toEqual([
      {
        id: 'n1',
        author: 'somchai',
        likes: 3,
        posted_at: new Date('2026-11-24T08:00:00.000Z'),
        body: 'สวัสดี',
        meta: { tags: ['a'] },
      },
    ]);
    const sealedRows = await db.query<{ body: Uint8Array }>(`SELECT body FROM table_test.notes_sealed`);
    expect(Buffer.from(sealedRows[0]!.body).toString('utf8')).not.toContain('สวัสดี');
  });

  it('gathers no statistics of sealed columns, and the plain ones as usual', async () => {
    await db.query(
      ...insertRows(
        'table_test',
        notes,
        Array.from({ length: 50 }, (_, i) => ({
          id: `s${i}`,
          author: `author ${i % 5}`,
          posted_at: '2026-11-24T08:00:00.000Z',
          body: sealText(key, `note ${i}`),
          meta: sealText(key, JSON.stringify({ tags: [] })),
        })),
      ),
    );
    await db.query(`ANALYZE table_test.notes_sealed`);
    const gathered = await db.query<{ attname: string }>(
      `SELECT attname FROM pg_stats WHERE schemaname = 'table_test' AND tablename = 'notes_sealed' ORDER BY attname`,
    );
    expect(gathered.map((row) => row.attname)).toEqual(['author', 'id', 'likes', 'posted_at']);
    await db.query(`DELETE FROM table_test.notes_sealed WHERE id LIKE 's%'`);
  });

  it('creates its declared indexes, and creating again changes nothing', async () => {
    await createTable(db, 'table_test', notes);
    const indexes = await db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = 'table_test' ORDER BY indexname`,
    );
    expect(indexes.map((index) => index.indexname)).toEqual(['notes_by_author', 'notes_sealed_pkey']);
  });

  it('makes an index declared after its table was made (an upgrade), keeping those already there', async () => {
    const first = defineTable(
      'later',
      { id: column<string>('text NOT NULL'), at: column<Date>('timestamptz') },
      {
        primaryKey: ['id'],
        indexes: { later_by_at: 'at' },
      },
    );
    await createTable(db, 'table_test', first);
    const oid = async (index: string) =>
      (await db.query<{ oid: string }>(`SELECT to_regclass($1)::oid::text AS oid`, [`table_test.${index}`]))[0]!.oid;
    const kept = await oid('later_by_at');
    await createTable(db, 'table_test', { ...first, indexes: { ...first.indexes, later_by_id_at: 'id, at' } });
    expect(await oid('later_by_at')).toBe(kept);
    expect(await oid('later_by_id_at')).not.toBeNull();
  });

  it('inserts many plain rows in one statement, each column typed as declared, nulls and Thai text kept', async () => {
    const tally = defineTable('tally', {
      id: column<number>('bigint PRIMARY KEY'),
      who: column<string | null>('text'),
      seen: column<boolean>('boolean NOT NULL DEFAULT false'),
      at: column<Date | null>('timestamptz'),
    });
    await createTable(db, 'table_test', tally);
    const rows = [
      { id: 1, who: 'สมชาย\u0e31', seen: true, at: '2026-11-24T08:00:00.000Z' },
      { id: 2, who: null, seen: false, at: null },
    ];
    await db.query(...insertRows('table_test', tally, rows));
    await db.query(...insertRows('table_test', tally, rows, 'ON CONFLICT (id) DO NOTHING'));
    expect(await db.query(`SELECT id::int AS id, who, seen, at FROM table_test.tally ORDER BY id`)).toEqual([
      { id: 1, who: 'สมชาย\u0e31', seen: true, at: new Date('2026-11-24T08:00:00.000Z') },
      { id: 2, who: null, seen: false, at: null },
    ]);
    // Sealed columns take their sealed bytes, and the view opens them.
    await db.query(
      ...insertRows('table_test', notes, [
        { id: 'n2', author: 'a', posted_at: '2026-11-24T08:00:00.000Z', body: sealText(key, 'สอง'), meta: null },
        { id: 'n3', author: 'b', posted_at: '2026-11-24T09:00:00.000Z', body: sealText(key, 'three'), meta: null },
      ]),
    );
    expect(await db.query(`SELECT id, body FROM table_test.notes WHERE id IN ('n2', 'n3') ORDER BY id`)).toEqual([
      { id: 'n2', body: 'สอง' },
      { id: 'n3', body: 'three' },
    ]);
    expect(() => insertRows('table_test', tally, [{ id: 3, nope: 1 } as never])).toThrow(/has no column nope/);
  });

  it('writes array columns row by row, whatever their elements hold, under a GIN index', async () => {
    const bags = defineTable(
      'bags',
      {
        id: column<number>('integer PRIMARY KEY'),
        grams: column<number[]>(`int[] NOT NULL DEFAULT '{}'`),
        words: column<(string | null)[] | null>('text[]'),
      },
      { indexes: { bags_grams: { using: 'gin', on: 'grams' } } },
    );
    await createTable(db, 'table_test', bags);
    const rows = [
      { id: 1, grams: [-2147483648, 0, 2147483647], words: ['a,b', 'say "hi"', 'back\\slash', '{}', 'NULL', null, ''] },
      { id: 2, grams: [], words: null },
      { id: 3, grams: [7], words: ['ก้่ำ'] },
    ];
    await db.query(...insertRows('table_test', bags, rows));
    expect(await db.query(`SELECT id, grams, words FROM table_test.bags ORDER BY id`)).toEqual(rows);
    expect(await db.query(`SELECT id FROM table_test.bags WHERE grams @> '{7}'`)).toEqual([{ id: 3 }]);
    const [index] = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = 'table_test' AND indexname = 'bags_grams'`,
    );
    expect(index!.indexdef).toMatch(/USING gin \(grams\)/);
  });

  it('makes an index with the storage parameters declared, and a rebuild builds it with them again', async () => {
    const pending = defineTable(
      'pending',
      { id: column<number>('integer PRIMARY KEY'), grams: column<number[]>(`int[] NOT NULL DEFAULT '{}'`) },
      { indexes: { pending_grams: { using: 'gin', on: 'grams', storage: { fastupdate: 'off' } } } },
    );
    const options = async () =>
      (
        await db.query<{ options: string[] | null }>(
          `SELECT reloptions AS options FROM pg_class WHERE oid = 'table_test.pending_grams'::regclass`,
        )
      )[0]!.options;
    await createTable(db, 'table_test', pending);
    expect(await options()).toEqual(['fastupdate=off']);
    for (let id = 1; id <= 50; id++) {
      await db.query(...insertRows('table_test', pending, [{ id, grams: [id, id + 1, 7] }]));
    }
    // Nothing waits in GIN's pending list (which every search would read): each row is in the index.
    const [left] = await db.query<{ pages: string }>(
      `SELECT gin_clean_pending_list('table_test.pending_grams'::regclass)::text AS pages`,
    );
    expect(left!.pages).toBe('0');
    expect(await db.query(`SELECT id FROM table_test.pending WHERE grams @> '{7, 31}' ORDER BY id`)).toEqual([
      { id: 30 },
      { id: 31 },
    ]);
    const aside = await setQueryIndexesAside(db, 'table_test');
    expect(aside.map((index) => index.name)).toContain('pending_grams');
    await buildQueryIndexes(db, 'table_test', aside);
    expect(await options()).toEqual(['fastupdate=off']);
    await db.query(`DROP TABLE table_test.pending`);
  });

  it('opens a row read sealed in Node as the view opens it', async () => {
    await db.query(
      ...insertRows('table_test', notes, [
        {
          id: 'n4',
          author: 'c',
          posted_at: '2026-11-24T10:00:00.000Z',
          body: null,
          meta: sealText(key, '{"tags":["x"]}'),
        },
      ]),
    );
    const [stored] = await db.query(`SELECT * FROM table_test.notes_sealed WHERE id = 'n4'`);
    const [viewed] = await db.query(`SELECT * FROM table_test.notes WHERE id = 'n4'`);
    expect(openRow(notes, key, stored!)).toEqual(viewed);
  });
});

describe('declared columns, at compile time', () => {
  it('refuses a column the declaration does not have, on either side', () => {
    // @ts-expect-error: no column `writer`
    insertRow('s', notes, { writer: 'x' });
    // @ts-expect-error: `likes` is a number
    updateRows('s', notes, { likes: 'many' }, { id: 'n1' });
    expect(() => updateRows('s', notes, { likes: 1 }, {})).toThrow(/a column to match/);
    expect(() => updateRows('s', notes, {}, { id: 'n1' })).toThrow(/a column to set/);
    const read = (row: RowOf<typeof notes>) =>
      // @ts-expect-error: the row has no `writer`
      row.writer;
    expect(typeof read).toBe('function');
  });
});
