import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import { createEventStore } from '../src/store/event-store.ts';
import { createFoldMemory } from '../src/store/fold-memory.ts';
import { type EventStore, ReadStreamsMoved, type StreamFold, WrongExpectedRevision } from '../src/store/port.ts';
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

  it('answers the folds it remembers without a read, a stream marked new as new, and null when it remembers one not', async () => {
    const fold = countingFold();
    await store.append('remembered-1', [event(1), event(2)], { expectedRevision: 'no_stream' });
    const asks = [
      { streamId: 'remembered-1', fold },
      { streamId: 'remembered-1-new', fold, newWhenUnknown: true },
    ] as { streamId: string; fold: StreamFold<unknown>; newWhenUnknown?: boolean }[];
    expect(store.rememberedFolds(asks)).toBeNull();
    const read = await store.readFolded('remembered-1', fold);
    // Another process's append is not seen: what is remembered is answered as it is.
    await other.append('remembered-1', [event(3)], { expectedRevision: 1 });
    expect(store.rememberedFolds(asks)).toEqual([read, { state: [], revision: -1, position: null }]);
  });

  it('appends a decision made on remembered streams only while they stand, on every way an append is written', async () => {
    const fold = countingFold();
    await store.append('decided-on', [event(1)], { expectedRevision: 'no_stream' });
    const standing = [{ streamId: 'decided-on', revision: 0 }];
    const moved = async (append: () => Promise<unknown>) => {
      const error = await append().then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ReadStreamsMoved);
      expect(error).toMatchObject({ streamIds: ['decided-on'], wentBack: false });
    };
    const key = { key: 'decided-on-key', fingerprint: 'f1' };
    // While it stands: group-committed with and without a key, alone in a transaction, decided.
    await store.append('decided-1', [event(1)], { expectedRevision: 'no_stream', decidedOn: standing });
    await store.append('decided-2', [event(1)], {
      expectedRevision: 'no_stream',
      decidedOn: standing,
      idempotency: key,
    });
    await store.append('decided-3', [event(1)], {
      expectedRevision: 'no_stream',
      decidedOn: standing,
      inSameTransaction: async () => {},
    });
    await store.appendFolded('decided-4', fold, () => [event(1)], { decidedOn: standing });
    for (const id of ['decided-1', 'decided-2', 'decided-3', 'decided-4']) {
      expect((await store.readStream(id)).map(numberOf)).toEqual([1]);
    }
    expect(await store.appendFolded('decided-4', fold, () => [], { decidedOn: standing })).toMatchObject({
      nextRevision: 0,
    });

    await other.append('decided-on', [event(2)], { expectedRevision: 0 });
    const otherKey = { key: 'decided-on-key-2', fingerprint: 'f2' };
    await moved(() => store.append('moved-1', [event(1)], { expectedRevision: 'no_stream', decidedOn: standing }));
    await moved(() =>
      store.append('moved-2', [event(1)], {
        expectedRevision: 'no_stream',
        decidedOn: standing,
        idempotency: otherKey,
      }),
    );
    let wrote = false;
    await moved(() =>
      store.append('moved-3', [event(1)], {
        expectedRevision: 'no_stream',
        decidedOn: standing,
        inSameTransaction: async () => void (wrote = true),
      }),
    );
    expect(wrote).toBe(false);
    await moved(() => store.appendFolded('moved-4', fold, () => [event(1)], { decidedOn: standing }));
    // A decision to change nothing is checked too (the decision may have been a refusal).
    await moved(() => store.appendFolded('decided-4', fold, () => [], { decidedOn: standing }));
    for (const id of ['moved-1', 'moved-2', 'moved-3', 'moved-4']) expect(await store.readStream(id)).toEqual([]);
    // The refused key was released: the same request, decided again, appends.
    const again = await store.append('moved-2', [event(1)], {
      expectedRevision: 'no_stream',
      decidedOn: [{ streamId: 'decided-on', revision: 1 }],
      idempotency: otherKey,
    });
    expect(again).toMatchObject({ nextRevision: 0, replayed: false });
  });

  it('forgets what it remembered when a stream decided on is behind the revision taken (the log went back)', async () => {
    const fold = countingFold();
    await store.append('behind-1', [event(1), event(2)], { expectedRevision: 'no_stream' });
    await store.readFolded('behind-1', fold);
    const asks = [{ streamId: 'behind-1', fold }] as { streamId: string; fold: StreamFold<unknown> }[];
    expect(store.rememberedFolds(asks)).not.toBeNull();
    for (const idempotency of [undefined, { key: 'behind-key', fingerprint: 'f' }]) {
      await expect(
        store.appendFolded('behind-target', fold, () => [event(1)], {
          decidedOn: [{ streamId: 'behind-1', revision: 5 }],
          idempotency,
        }),
      ).rejects.toMatchObject({ name: 'ReadStreamsMoved', wentBack: true });
    }
    expect(store.rememberedFolds(asks)).toBeNull();
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
