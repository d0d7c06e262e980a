import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import {
  type EventStore,
  IdempotencyKeyReused,
  START,
  WrongExpectedRevision,
  checkpointOf,
} from '../src/store/port.ts';
import { subscribeToAll } from '../src/store/subscription.ts';
import { openEventStore, testDatabases } from '../src/testing/databases.ts';

/**
 * Plain appends are committed in groups (../src/store/append-batch.ts). Rushes of 64 callers at
 * once, each outcome counted exactly: a group must give each caller what it would have had alone.
 */
const event = (n: number, type = 'Counted'): NewEvent => ({ type, schemaVersion: 1, data: { n } });
const rush = <T>(count: number, call: (i: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: count }, (_, i) => call(i)));
const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
  results.filter((r): r is PromiseFulfilledResult<T> => r.status === 'fulfilled').map((r) => r.value);
const rejected = <T>(results: PromiseSettledResult<T>[]) =>
  results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);

describe.each(testDatabases())('group commit on $name', (database) => {
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, drop } = await openEventStore(database));
  });
  afterAll(() => drop());

  async function readEverything(): Promise<StoredEvent[]> {
    const all: StoredEvent[] = [];
    for (let after = START; ;) {
      const batch = await store.readAll(after, 1000);
      if (batch.length === 0) return all;
      all.push(...batch);
      after = checkpointOf(batch.at(-1)!);
    }
  }

  it('64 callers creating one stream at once: exactly 1 appends, 63 are told it exists', async () => {
    const results = await rush(64, (i) => store.append('rush-create', [event(i)], { expectedRevision: 'no_stream' }));
    expect(fulfilled(results)).toHaveLength(1);
    const refusals = rejected(results);
    expect(refusals).toHaveLength(63);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(WrongExpectedRevision);
      expect((refusal as WrongExpectedRevision).actual).toBe(0);
    }
    expect(await store.readStream('rush-create')).toHaveLength(1);
  });

  it('64 callers expecting revision 0 at once: exactly 1 appends, the others find revision 1', async () => {
    await store.append('rush-expected', [event(0)], { expectedRevision: 'no_stream' });
    const results = await rush(64, (i) => store.append('rush-expected', [event(i)], { expectedRevision: 0 }));
    expect(fulfilled(results).map((r) => r.nextRevision)).toEqual([1]);
    expect(rejected(results).map((e) => (e as WrongExpectedRevision).actual)).toEqual(Array(63).fill(1));
    expect(await store.readStream('rush-expected')).toHaveLength(2);
  });

  it("64 callers appending 'any' to one stream at once: all 64 append, revisions 0..63 without a gap", async () => {
    const results = await rush(64, (i) => store.append('rush-any', [event(i)], { expectedRevision: 'any' }));
    const appended = fulfilled(results);
    expect(appended).toHaveLength(64);
    expect(appended.map((r) => r.nextRevision).sort((a, b) => a - b)).toEqual([...Array(64).keys()]);
    const stream = await store.readStream('rush-any');
    expect(stream.map((e) => e.streamRevision)).toEqual([...Array(64).keys()]);
    // Each caller's answer points at its own event.
    const byPosition = new Map(stream.map((e) => [e.position, e]));
    for (const result of appended) expect(byPosition.get(result.position)?.streamRevision).toBe(result.nextRevision);
  });

  it('64 callers on 64 new streams at once, 3 events each: all append, each append whole and in order', async () => {
    const results = await rush(64, (i) =>
      store.append(`multi-${i}`, [event(0), event(1), event(2)], { expectedRevision: 'no_stream' }),
    );
    const appended = fulfilled(results);
    expect(appended).toHaveLength(64);
    const log = (await readEverything()).filter((e) => e.streamId.startsWith('multi-'));
    expect(log).toHaveLength(192);
    for (let i = 0; i < 64; i++) {
      const mine = log.filter((e) => e.streamId === `multi-${i}`);
      // Contiguous in the global order, revisions 0, 1, 2, the answer at the last one.
      const at = log.indexOf(mine[0]!);
      expect(log.slice(at, at + 3)).toEqual(mine);
      expect(mine.map((e) => [e.streamRevision, (e.data as { n: number }).n])).toEqual([
        [0, 0],
        [1, 1],
        [2, 2],
      ]);
      expect(appended[i]).toMatchObject({ streamId: `multi-${i}`, nextRevision: 2, position: mine[2]!.position });
    }
  });

  it('one caller whose event the database refuses fails alone: the 63 others in its group append', async () => {
    const results = await rush(64, (i) =>
      store.append(
        `poison-${i}`,
        [i === 17 ? { type: 'Bad', schemaVersion: 1, data: { text: 'a\u0000b' } } : event(i)],
        {
          expectedRevision: 'no_stream',
        },
      ),
    );
    expect(results[17]!.status).toBe('rejected');
    expect(fulfilled(results)).toHaveLength(63);
    expect(await store.readStream('poison-17')).toEqual([]);
    expect(await store.readStream('poison-18')).toHaveLength(1);
  });

  it('64 callers with one idempotency key at once: one append, 63 answered its result', async () => {
    const key = { key: 'rush-key', fingerprint: 'same request' };
    const results = await rush(64, () =>
      store.append('rush-key-stream', [event(1)], { expectedRevision: 'any', idempotency: key }),
    );
    const answers = fulfilled(results);
    expect(answers).toHaveLength(64);
    expect(answers.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(answers.map((r) => r.position)).size).toBe(1);
    expect(await store.readStream('rush-key-stream')).toHaveLength(1);
    await expect(
      store.append('rush-key-stream', [event(1)], {
        expectedRevision: 'any',
        idempotency: { key: 'rush-key', fingerprint: 'another request' },
      }),
    ).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });

  it('a refused append with a key releases the key: the same request appends once the stream allows it', async () => {
    const key = { key: 'released-key', fingerprint: 'f' };
    await expect(
      store.append('released', [event(1)], { expectedRevision: 3, idempotency: key }),
    ).rejects.toBeInstanceOf(WrongExpectedRevision);
    const result = await store.append('released', [event(1)], { expectedRevision: 'no_stream', idempotency: key });
    expect(result).toMatchObject({ nextRevision: 0, replayed: false });
  });

  it('a reader following while 64 writers append in groups sees every event once, in the order a later read gives', async () => {
    const seen: StoredEvent[] = [];
    const reader = subscribeToAll(store, {
      from: async () => START,
      handle: async (batch) => void seen.push(...batch),
      batchSize: 7,
      pollMs: 20,
    });
    await rush(64, async (writer) => {
      for (let i = 0; i < 10; i++) await store.append(`follow-${writer}`, [event(i)], { expectedRevision: 'any' });
    });
    const log = await readEverything();
    for (let waited = 0; seen.length < log.length && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await reader.stop();
    expect(seen.map((e) => e.position)).toEqual(log.map((e) => e.position));
  });

  it('keyed and unkeyed callers mixed at once on many streams: every event once, in one global order', async () => {
    const before = (await readEverything()).length;
    const results = await rush(64, (i) =>
      store.append(`mixed-${i % 8}`, [event(i)], {
        expectedRevision: 'any',
        ...(i % 2 === 0 ? { idempotency: { key: `mixed-key-${i}`, fingerprint: 'f' } } : {}),
      }),
    );
    expect(fulfilled(results)).toHaveLength(64);
    const log = await readEverything();
    expect(log).toHaveLength(before + 64);
    expect(new Set(log.map((e) => e.position)).size).toBe(log.length);
    for (let s = 0; s < 8; s++) {
      expect((await store.readStream(`mixed-${s}`)).map((e) => e.streamRevision)).toEqual([...Array(8).keys()]);
    }
  });
});
