// Over 250 lines: the one contract every event-store adapter must pass, on PGlite and
// PostgreSQL; kept whole so an adapter is checked against all of it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import { appendInTransaction, createEventStore, readAllAfter } from '../src/store/event-store.ts';
import {
  type Checkpoint,
  type EventStore,
  IdempotencyKeyReused,
  START,
  WrongExpectedRevision,
  checkpointOf,
  isAtOrBefore,
} from '../src/store/port.ts';
import { createEventStoreSchema } from '../src/store/schema.ts';
import type { SqlDatabase } from '../src/store/sql.ts';
import { subscribeToAll } from '../src/store/subscription.ts';
import { openEventStore, testDatabases } from '../src/testing/databases.ts';
import { holdTransactionOpen } from '../src/testing/open-transaction.ts';

const event = (n: number): NewEvent => ({ type: 'Counted', schemaVersion: 1, data: { n } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads everything after `from` until a read answers nothing new. */
async function drain(db: SqlDatabase, from: Checkpoint, seen: StoredEvent[]): Promise<Checkpoint> {
  let at = from;
  for (;;) {
    const batch = await readAllAfter(db, at, 100);
    if (batch.length === 0) return at;
    seen.push(...batch);
    at = checkpointOf(batch[batch.length - 1]!);
  }
}

describe.each(testDatabases())('event store contract on $name', (database) => {
  let db: SqlDatabase;
  let store: EventStore;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, store, drop } = await openEventStore(database));
  });
  afterAll(() => drop());

  it('appends to a stream with revisions from 0 and reads it back in order', async () => {
    const first = await store.append('counter-a', [event(1), event(2)], { expectedRevision: 'no_stream' });
    const second = await store.append('counter-a', [event(3)], { expectedRevision: first.nextRevision });
    expect(first.nextRevision).toBe(1);
    expect(second.nextRevision).toBe(2);
    expect(second.position).toBeGreaterThan(first.position);
    const stream = await store.readStream('counter-a');
    expect(stream.map((e) => [e.streamRevision, (e.data as { n: number }).n])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(stream[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('reads a long stream in revision order (10 after 9, not after 1)', async () => {
    let revision: number | 'no_stream' = 'no_stream';
    for (let n = 0; n < 12; n++)
      revision = (await store.append('long-stream', [event(n)], { expectedRevision: revision })).nextRevision;
    const stream = await store.readStream('long-stream');
    expect(stream.map((e) => e.streamRevision)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('refuses an append whose expected revision is stale, and appends nothing', async () => {
    await store.append('counter-b', [event(1)], { expectedRevision: 'no_stream' });
    await expect(store.append('counter-b', [event(2)], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
      WrongExpectedRevision,
    );
    await store.append('counter-b', [event(2)], { expectedRevision: 0 });
    const stale = store.append('counter-b', [event(3)], { expectedRevision: 0 });
    await expect(stale).rejects.toMatchObject({ expected: 0, actual: 1 });
    expect(await store.readStream('counter-b')).toHaveLength(2);
  });

  it('answers a replayed idempotency key with the first result and appends nothing', async () => {
    const idempotency = { key: 'key-1', fingerprint: 'request-1' };
    const first = await store.append('counter-c', [event(1)], { expectedRevision: 'no_stream', idempotency });
    const again = await store.append('counter-c', [event(1)], { expectedRevision: 'no_stream', idempotency });
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ ...first, replayed: true });
    expect(await store.findIdempotent('key-1', 'request-1')).toEqual({ ...first, replayed: true });
    expect(await store.findIdempotent('key-unknown', 'request-1')).toBeNull();
    expect(await store.readStream('counter-c')).toHaveLength(1);
  });

  it('refuses an idempotency key reused for a different request', async () => {
    const idempotency = { key: 'key-2', fingerprint: 'request-2' };
    await store.append('counter-d', [event(1)], { expectedRevision: 'no_stream', idempotency });
    const reused = { key: 'key-2', fingerprint: 'another request' };
    await expect(
      store.append('counter-d', [event(2)], { expectedRevision: 0, idempotency: reused }),
    ).rejects.toBeInstanceOf(IdempotencyKeyReused);
    await expect(store.findIdempotent('key-2', 'another request')).rejects.toBeInstanceOf(IdempotencyKeyReused);
    expect(await store.readStream('counter-d')).toHaveLength(1);
  });

  it('decides concurrent callers on one stream one after another, each on what the one before appended', async () => {
    // Each caller appends the number after the last one it sees: any two deciding on the same
    // state would append the same number twice.
    const next = (history: StoredEvent[]) => [event(((history.at(-1)?.data as { n: number }) ?? { n: 0 }).n + 1)];
    await Promise.all(Array.from({ length: 24 }, () => store.appendDecided('decided-1', next)));
    const numbers = (await store.readStream('decided-1')).map((stored) => (stored.data as { n: number }).n);
    expect(numbers).toEqual(Array.from({ length: 24 }, (_, n) => n + 1));
  });

  it('decides on the history its caller read, and again on the log when that history is stale', async () => {
    await store.append('decided-5', [event(1)], { expectedRevision: 'no_stream' });
    const read = await store.readStream('decided-5');
    await store.append('decided-5', [event(2)], { expectedRevision: 0 });
    const seen: number[] = [];
    await store.appendDecided(
      'decided-5',
      (history) => {
        seen.push(history.length);
        return [event(((history.at(-1)?.data as { n: number }) ?? { n: 0 }).n + 1)];
      },
      { history: read },
    );
    expect(seen).toEqual([1, 2]);
    expect((await store.readStream('decided-5')).map((stored) => (stored.data as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it('decides again, on what was appended, when another writer got in between its read and its append', async () => {
    let decisions = 0;
    let interloper: Promise<unknown> = Promise.resolve();
    const result = await store.appendDecided('decided-3', (history) => {
      decisions++;
      // The first decision is made on the empty stream; a plain append lands before it is written.
      if (decisions === 1) interloper = store.append('decided-3', [event(100)], { expectedRevision: 'no_stream' });
      return [event(((history.at(-1)?.data as { n: number }) ?? { n: 0 }).n + 1)];
    });
    await interloper;
    expect(decisions).toBe(2);
    expect((await store.readStream('decided-3')).map((stored) => (stored.data as { n: number }).n)).toEqual([100, 101]);
    expect(result).toMatchObject({ nextRevision: 1, replayed: false });
  });

  it('answers a replayed key its first result whatever is decided now, and not a refusal', async () => {
    const key = { key: 'decided-key-4', fingerprint: 'f' };
    const first = await store.appendDecided('decided-4', () => [event(1)], { idempotency: key });
    const refusing = () => {
      throw new Error('already done');
    };
    expect(await store.appendDecided('decided-4', refusing, { idempotency: key })).toEqual({
      ...first,
      replayed: true,
    });
    expect(await store.appendDecided('decided-4', () => [event(2)], { idempotency: key })).toEqual({
      ...first,
      replayed: true,
    });
    expect(await store.readStream('decided-4')).toHaveLength(1);
  });

  it('stores a decision under its idempotency key, even a decision to change nothing, and refuses without storing', async () => {
    const key = { key: 'decided-key-1', fingerprint: 'f' };
    const first = await store.appendDecided('decided-2', () => [event(1)], { idempotency: key });
    const again = await store.appendDecided('decided-2', () => [event(2)], { idempotency: key });
    expect(again).toEqual({ ...first, replayed: true });
    const nothing = { key: 'decided-key-2', fingerprint: 'f' };
    await store.appendDecided('decided-2', () => [], { idempotency: nothing });
    expect(await store.appendDecided('decided-2', () => [event(3)], { idempotency: nothing })).toMatchObject({
      position: first.position,
      replayed: true,
    });
    const refused = { key: 'decided-key-3', fingerprint: 'f' };
    await expect(
      store.appendDecided(
        'decided-2',
        () => {
          throw new Error('refused');
        },
        { idempotency: refused },
      ),
    ).rejects.toThrow('refused');
    await store.appendDecided('decided-2', () => [event(4)], { idempotency: refused });
    expect((await store.readStream('decided-2')).map((stored) => (stored.data as { n: number }).n)).toEqual([1, 4]);
  });

  it('rolls the whole append back when work in the same transaction fails', async () => {
    const failing = store.append('counter-e', [event(1)], {
      expectedRevision: 'no_stream',
      inSameTransaction: async (tx) => {
        await tx.query('SELECT 1/0');
      },
    });
    await expect(failing).rejects.toThrow();
    expect(await store.readStream('counter-e')).toHaveLength(0);
    await store.append('counter-e', [event(1)], { expectedRevision: 'no_stream' });
  });

  it('places a position in the global order and says how far a checkpoint is behind the log', async () => {
    const first = await store.append('lag-a', [event(1)], { expectedRevision: 'no_stream' });
    await store.append('lag-b', [event(2)], { expectedRevision: 'no_stream' });
    const last = await store.append('lag-a', [event(3)], { expectedRevision: 0 });
    const firstCheckpoint = await store.checkpointAt(first.position);
    const lastCheckpoint = await store.checkpointAt(last.position);
    expect(firstCheckpoint).toMatchObject({ position: first.position });
    expect(isAtOrBefore(firstCheckpoint!, lastCheckpoint!)).toBe(true);
    expect(isAtOrBefore(lastCheckpoint!, firstCheckpoint!)).toBe(false);
    expect(await store.checkpointAt(last.position + 1_000_000)).toBeNull();

    const behind = await store.lagBehind(firstCheckpoint!);
    expect(behind.events).toBe(2);
    expect(Date.parse(behind.oldestAt!)).toBeLessThanOrEqual(Date.now());
    expect(await store.lagBehind(lastCheckpoint!)).toEqual({ events: 0, oldestAt: null });
    // Counted one by one up to a limit, then estimated from the positions the log spans.
    const counted = await store.lagBehind(firstCheckpoint!, 1);
    expect(counted.events).toBe(last.position - first.position);
    expect(counted.oldestAt).not.toBeNull();
    expect(await store.lagBehind(firstCheckpoint!, 3)).toEqual(behind);
  });

  it('lets a reader follow many concurrent writers without skipping or repeating an event', async () => {
    const start = await drain(db, START, []);
    const writers = 8;
    const appendsPerWriter = 15;
    const seen: StoredEvent[] = [];
    let writing = true;
    const reader = (async () => {
      let at = start;
      while (writing) {
        at = await drain(db, at, seen);
        await sleep(1);
      }
      await drain(db, at, seen);
    })();
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < appendsPerWriter; i++) {
          const streamId = `load-${(writer * 7 + i) % 10}`;
          for (;;) {
            try {
              const [current] = await db.query<{ revision: string }>(
                'SELECT revision::text FROM es.streams WHERE stream_id = $1',
                [streamId],
              );
              await db.transaction(async (tx) => {
                await appendInTransaction(tx, streamId, [event(writer * 1000 + i)], {
                  expectedRevision: current ? Number(current.revision) : 'no_stream',
                });
                // Hold some transactions open so that commits land out of position order.
                await sleep(Math.random() < 0.3 ? 5 + Math.random() * 20 : 0);
              });
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevision)) throw error;
            }
          }
        }
      }),
    );
    writing = false;
    await reader;

    const written = seen.filter((e) => e.streamId.startsWith('load-'));
    expect(written).toHaveLength(writers * appendsPerWriter);
    expect(new Set(written.map((e) => e.position)).size).toBe(written.length);
    const perStream = new Map<string, number[]>();
    for (const e of written) perStream.set(e.streamId, [...(perStream.get(e.streamId) ?? []), e.streamRevision]);
    for (const revisions of perStream.values()) expect(revisions).toEqual(revisions.map((_, i) => i));
  });

  /** A catch-up subscription from the log's head that keeps what it receives; it polls once a minute. */
  async function subscribeFromHead(gatherMs?: number) {
    const received: StoredEvent[] = [];
    const batches: number[] = [];
    let checkpoint = await drain(db, START, []);
    const subscription = subscribeToAll(store, {
      from: async () => checkpoint,
      handle: async (batch) => {
        received.push(...batch);
        batches.push(batch.length);
        checkpoint = checkpointOf(batch[batch.length - 1]!);
      },
      pollMs: 60_000,
      gatherMs,
    });
    await sleep(50);
    return { received, batches, subscription };
  }

  it('delivers appended events to a catch-up subscription, woken without waiting for the poll', async () => {
    const { received, subscription } = await subscribeFromHead();
    await store.append('counter-f', [event(1), event(2)], { expectedRevision: 'no_stream' });
    await expect.poll(() => received.length, { timeout: 2000 }).toBe(2);
    await store.append('counter-f', [event(3)], { expectedRevision: 1 });
    await expect.poll(() => received.length, { timeout: 2000 }).toBe(3);
    expect(subscription.state()).toMatchObject({ running: true, lastError: null });
    await subscription.stop();
    expect(received.map((e) => e.streamRevision)).toEqual([0, 1, 2]);
  });

  it('gathers the appends right behind the one that woke it into one batch', async () => {
    const { received, batches, subscription } = await subscribeFromHead(400);
    await store.append('counter-g', [event(1)], { expectedRevision: 'no_stream' });
    await store.append('counter-h', [event(1)], { expectedRevision: 'no_stream' });
    await store.append('counter-g', [event(2)], { expectedRevision: 0 });
    await expect.poll(() => received.length, { timeout: 2000 }).toBe(3);
    expect(batches).toEqual([3]);
    await subscription.stop();
  });

  // Only where transactions run side by side (PGlite has one connection: none is ever in flight
  // while another commits).
  if (database.name === 'postgres') {
    const holdOpen = () => holdTransactionOpen(db);

    it('is woken when a transaction that held events back ends, though it appends nothing', async () => {
      const { received, subscription } = await subscribeFromHead();
      // A transaction elsewhere (a projector's batch, a command's) holds an older transaction id.
      const blocker = await holdOpen();
      // Committed and notified, but behind the running transaction: not readable yet.
      await store.append('counter-held', [event(1)], { expectedRevision: 'no_stream' });
      await sleep(200);
      expect(received.filter((e) => e.streamId === 'counter-held')).toHaveLength(0);
      // It ends without appending, so without a notification: the event is read all the same.
      await blocker.release();
      await expect.poll(() => received.filter((e) => e.streamId === 'counter-held').length, { timeout: 2000 }).toBe(1);
      await subscription.stop();
    });

    it('looks again soon after each pass that read events while others were still held back (a steady load)', async () => {
      const { received, subscription } = await subscribeFromHead();
      const chain = () => received.filter((e) => e.streamId === 'counter-chain').length;
      // Each step: the event before becomes readable while the next is held back by a newer
      // transaction. A reader that backed off further at every such pass would sleep its whole
      // poll (a minute here) after a dozen of them, though every pass found something.
      let holding = await holdOpen();
      await store.append('counter-chain', [event(1)], { expectedRevision: 'no_stream' });
      for (let n = 1; n <= 12; n++) {
        const next = await holdOpen();
        await store.append('counter-chain', [event(n + 1)], { expectedRevision: n - 1 });
        await holding.release();
        holding = next;
        await expect.poll(chain, { timeout: 1000, interval: 5 }).toBe(n);
      }
      await holding.release();
      await expect.poll(chain, { timeout: 1000, interval: 5 }).toBe(13);
      await subscription.stop();
    });
  }
});

/**
 * Transaction ids grow past a power of ten (9 to 10, 99 to 100, ...) in every database's life. The reader must
 * follow them as numbers: ordered as text, 1000 would come before 999 and a batch boundary there
 * would skip events. Rows are written with chosen ids, in a database of their own.
 */
describe.each(testDatabases())('global order across transaction-id digit boundaries on $name', (database) => {
  it('reads in numeric transaction-id order in batches, skipping nothing', async () => {
    const { db, drop } = await database.open();
    try {
      await createEventStoreSchema(db);
      const ids = [8, 9, 10, 11, 98, 99, 100, 101]; // all below any real transaction id, so all committed
      for (const [revision, id] of ids.entries()) {
        await db.query(
          `INSERT INTO es.events (transaction_id, stream_id, stream_revision, type, schema_version, data)
           VALUES ($1::text::xid8, 'boundary', $2, 'CounterIncremented', 1, '{}')`,
          [String(id), revision],
        );
      }
      const store = createEventStore(db);
      const seen: string[] = [];
      for (let after: Checkpoint = START; ;) {
        const batch = await store.readAll(after, 3);
        if (batch.length === 0) break;
        seen.push(...batch.map((e) => e.transactionId));
        after = checkpointOf(batch.at(-1)!);
      }
      expect(seen).toEqual(ids.map(String));
    } finally {
      await drop();
    }
  });
});

/**
 * The log read in order (one JSON text a batch) must give the very events a stream's read gives
 * (a row at a time): every field, Thai and emoji in the data, metadata or none, and the time to the
 * millisecond however many microseconds the database kept, in any session time zone.
 */
describe.each(testDatabases())('the log read in order equals the streams read on $name', (database) => {
  it('gives the same events, field for field', async () => {
    const { db, drop } = await database.open();
    try {
      await createEventStoreSchema(db);
      const store = createEventStore(db);
      await store.append(
        'same-a',
        [
          {
            type: 'Said',
            schemaVersion: 2,
            data: {
              text: 'สวัสดีครับ 👋',
              // Quotes, backslashes, control characters, right-to-left marks, a Thai combining mark, formula prefixes.
              tricky: '"\\\u0001\u001f\u202e\u200fก\u0e34\u0e48=+-@\n\t</script>',
              large: 'ข'.repeat(1_000_000),
              nested: { list: [1, 2.5, null, -0.000001, 1e21], yes: true },
            },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      await store.append(
        'same-b',
        [{ ...event(1), metadata: { actorId: 'someone', correlationId: 'c-1' } }, event(2)],
        { expectedRevision: 'no_stream' },
      );
      const times = ['2026-01-02 03:04:05.999999+00', '1999-12-31 23:59:59.000500+07', '2026-11-25 00:00:00+00'];
      for (const [revision, time] of times.entries()) {
        await db.query(
          `INSERT INTO es.events (transaction_id, stream_id, stream_revision, type, schema_version, data, created_at)
           VALUES (pg_current_xact_id(), 'same-c', $1, 'Timed', 1, '{"n": 0}', $2::timestamptz)`,
          [revision, time],
        );
      }
      await db.useSessionSetting('TimeZone', 'Asia/Bangkok');
      // Held back while any older transaction of the server's is still running (another suite's).
      await expect.poll(async () => (await store.readAll(START, 100)).length, { timeout: 10_000 }).toBe(6);
      const inOrder = await store.readAll(START, 100);
      const streams = [
        ...(await store.readStream('same-a')),
        ...(await store.readStream('same-b')),
        ...(await store.readStream('same-c')),
      ];
      expect(inOrder).toEqual(streams);
      expect(inOrder.filter((e) => e.streamId === 'same-c').map((e) => e.createdAt)).toEqual([
        '2026-01-02T03:04:05.999Z',
        '1999-12-31T16:59:59.000Z',
        '2026-11-25T00:00:00.000Z',
      ]);
    } finally {
      await drop();
    }
  });
});
