import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import { createEventStore } from '../src/store/event-store.ts';
import { createFoldMemory } from '../src/store/fold-memory.ts';
import { type EventStore, type StreamFold, WrongExpectedRevision } from '../src/store/port.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { openEventStore, testDatabases } from '../src/testing/databases.ts';

const event = (n: number): NewEvent => ({ type: 'Counted', schemaVersion: 1, data: { n } });
const numberOf = (stored: StoredEvent) => (stored.data as { n: number }).n;

/** The numbers of a stream, as a fold that counts the events it was given. */
function countingFold() {
  const fold = {
    evolved: 0,
    initial: () => [] as number[],
    evolve(state: number[], stored: StoredEvent) {
      fold.evolved++;
      return [...state, numberOf(stored)];
    },
  } satisfies StreamFold<number[]> & { evolved: number };
  return fold;
}

describe.each(testDatabases())('folded streams on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  /** A second portal process on the same database: it appends without this store knowing. */
  let other: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
    other = createEventStore(db);
  });
  afterAll(() => drop());

  it('folds only what was appended since its last fold, whoever appended it, and equals a fold of the whole stream', async () => {
    const fold = countingFold();
    await store.append('folded-1', [event(1), event(2), event(3)], { expectedRevision: 'no_stream' });
    expect(await store.readFolded('folded-1', fold)).toMatchObject({ state: [1, 2, 3], revision: 2 });
    expect(fold.evolved).toBe(3);

    await other.append('folded-1', [event(4)], { expectedRevision: 2 });
    await store.append('folded-1', [event(5)], { expectedRevision: 3 });
    const folded = await store.readFolded('folded-1', fold);
    expect(fold.evolved).toBe(5);
    const whole = await store.readStream('folded-1');
    expect(folded).toEqual({ state: whole.map(numberOf), revision: 4, position: whole.at(-1)!.position });
    expect(await store.readFolded('folded-1', fold)).toEqual(folded);
    expect(fold.evolved).toBe(5);
  });

  it('remembers each fold of a stream apart, and reads several streams in one call, in the order asked', async () => {
    const numbers = countingFold();
    const count: StreamFold<number> = { initial: () => 0, evolve: (n) => n + 1 };
    await store.append('folded-2a', [event(1), event(2)], { expectedRevision: 'no_stream' });
    await store.append('folded-2b', [event(3)], { expectedRevision: 'no_stream' });
    await store.readFolded('folded-2a', count);
    await other.append('folded-2a', [event(4)], { expectedRevision: 1 });
    const read = await store.readFoldedMany([
      { streamId: 'folded-2b', fold: numbers },
      { streamId: 'folded-2-none', fold: numbers },
      { streamId: 'folded-2a', fold: count },
      { streamId: 'folded-2a', fold: numbers },
    ] as { streamId: string; fold: StreamFold<unknown> }[]);
    expect(read.map(({ state, revision, position }) => ({ state, revision, none: position === null }))).toEqual([
      { state: [3], revision: 0, none: false },
      { state: [], revision: -1, none: true },
      { state: 3, revision: 2, none: false },
      { state: [1, 2, 4], revision: 2, none: false },
    ]);
  });

  it('reads many streams in one call as it reads a few (more than a list of values takes), and nothing for none', async () => {
    const numbers = countingFold();
    // Twelve asks: eleven streams, each with its own number of events, the fifth asked twice.
    const ids = Array.from({ length: 11 }, (_, i) => `folded-many-${i}`);
    const numbersOf = (i: number, length: number) => Array.from({ length }, (_, n) => 100 * i + n);
    for (const [i, id] of ids.entries()) {
      await store.append(id, numbersOf(i, i + 1).map(event), { expectedRevision: 'no_stream' });
    }
    const asks = [...ids, ids[4]!].map((streamId) => ({ streamId, fold: numbers as StreamFold<unknown> }));
    const few = await Promise.all(asks.map((ask) => store.readFoldedMany([ask])));
    expect(few.flat().map(({ state }) => state)).toEqual([...ids.keys(), 4].map((i) => numbersOf(i, i + 1)));
    // Each remembered where it was read: the call of many asks reads only what came since.
    for (const [i, id] of ids.entries()) await other.append(id, [event(100 * i + i + 1)], { expectedRevision: i });
    const many = await store.readFoldedMany(asks);
    expect(many.map(({ state }) => state)).toEqual([...ids.keys(), 4].map((i) => numbersOf(i, i + 2)));
    expect(many.map(({ revision }) => revision)).toEqual([...ids.keys(), 4].map((i) => i + 1));
    expect(await store.readFoldedMany([])).toEqual([]);
  });

  it('decides 24 concurrent callers on two processes one after another, each on the state the one before left', async () => {
    const fold = countingFold();
    const next = (state: number[]) => [event((state.at(-1) ?? 0) + 1)];
    await Promise.all(
      Array.from({ length: 24 }, (_, i) => (i % 2 ? store : other).appendFolded('folded-3', fold, next)),
    );
    expect((await store.readStream('folded-3')).map(numberOf)).toEqual(Array.from({ length: 24 }, (_, n) => n + 1));
    // Each process remembers what it read: its next decision is on the whole stream.
    await other.appendFolded('folded-3', fold, next);
    expect((await store.readFolded('folded-3', fold)).state).toEqual(Array.from({ length: 25 }, (_, n) => n + 1));
  });

  it('decides again on what was appended when the fold it was given is stale, and answers an unchanged stream where it is', async () => {
    const fold = countingFold();
    await store.append('folded-4', [event(1)], { expectedRevision: 'no_stream' });
    const stale = await store.readFolded('folded-4', fold);
    await other.append('folded-4', [event(2)], { expectedRevision: 0 });
    const seen: number[][] = [];
    await store.appendFolded(
      'folded-4',
      fold,
      (state) => {
        seen.push(state);
        return [event(state.length + 1)];
      },
      { folded: stale },
    );
    expect(seen).toEqual([[1], [1, 2]]);
    const unchanged = await store.appendFolded('folded-4', fold, () => []);
    const last = (await store.readStream('folded-4')).at(-1)!;
    expect(unchanged).toEqual({ streamId: 'folded-4', nextRevision: 2, position: last.position, replayed: false });
  });

  it('forgets what it remembered when the log is behind it (a database restored under the process), and then decides on the log', async () => {
    const fold = countingFold();
    await store.append('folded-5', [event(1), event(2), event(3)], { expectedRevision: 'no_stream' });
    await store.readFolded('folded-5', fold);
    await db.query(`DELETE FROM es.events WHERE stream_id = 'folded-5' AND stream_revision > 0`);
    await db.query(`UPDATE es.streams SET revision = 0 WHERE stream_id = 'folded-5'`);
    const next = (state: number[]) => [event((state.at(-1) ?? 0) + 1)];
    await expect(store.appendFolded('folded-5', fold, next)).rejects.toBeInstanceOf(WrongExpectedRevision);
    await store.appendFolded('folded-5', fold, next);
    expect((await store.readStream('folded-5')).map(numberOf)).toEqual([1, 2]);
  });
});

describe('the memory of folds', () => {
  it('forgets the least recently used stream first', () => {
    const memory = createFoldMemory(2);
    const fold = countingFold();
    const at = (revision: number) => ({ state: [revision], revision, position: revision });
    memory.set(fold, 'a', at(1));
    memory.set(fold, 'b', at(1));
    memory.get(fold, 'a');
    memory.set(fold, 'c', at(1));
    expect([memory.get(fold, 'a'), memory.get(fold, 'b'), memory.get(fold, 'c')]).toEqual([at(1), undefined, at(1)]);
    memory.set(fold, 'a', at(0));
    expect(memory.get(fold, 'a')).toEqual(at(1));
  });
});
