import type { NewEvent } from '@portal/contracts/envelope';
import {
  type AppendOptions,
  type AppendResult,
  type ExpectedRevision,
  IdempotencyKeyReused,
  ReadStreamsMoved,
  type StreamAt,
  WrongExpectedRevision,
} from './port.ts';
import { APPEND_UNKEYED } from './append-batch.sql.ts';
import type { Sql, SqlDatabase } from './sql.ts';

export interface BatchedAppend {
  streamId: string;
  events: readonly NewEvent[];
  expectedRevision: ExpectedRevision;
  idempotency?: { key: string; fingerprint: string };
  decidedOn?: readonly StreamAt[];
}

export interface AppendBatcherOptions {
  /** Batches written at once: one waits for its commit while the next gathers callers. */
  maxInFlight?: number;
  /** Appends in one batch at most. */
  maxBatch?: number;
  /** Called after each batch commits, with its last position (to wake readers). */
  onCommitted?: (position: number) => void;
  /** Appends one on its own, in its own transaction: used when a batch as a whole fails. */
  appendAlone: (append: BatchedAppend) => Promise<AppendResult>;
}

interface Waiting {
  append: BatchedAppend;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

interface BatchRow {
  idx: number;
  status: 'ok' | 'wrong' | 'reused' | 'replay' | 'moved' | 'behind';
  next_revision: string | null;
  last_position: string | null;
  actual: string | null;
  replay: AppendResult | null;
}

/**
 * Group commit for plain appends. Callers that arrive while earlier batches are being written
 * wait and go together in the next one: a single statement (`es.append_batch`) checks and
 * writes each append in turn and commits them at once, so eight writers cost about one commit
 * and one round trip per batch instead of one transaction and six round trips each. Every append
 * keeps its guarantees: all or nothing, its expected revision, its idempotency key, and an answer
 * only after the commit. A batch that fails as a whole (a deadlock, an event the database refuses)
 * is retried one append at a time, so each caller gets its own outcome and no one else's error.
 */
export function createAppendBatcher(db: SqlDatabase, options: AppendBatcherOptions) {
  const maxInFlight = options.maxInFlight ?? 1;
  const maxBatch = options.maxBatch ?? 256;
  const queue: Waiting[] = [];
  let inFlight = 0;

  const next = () => {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = take();
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        next();
      });
    }
  };

  /**
   * The next batch: waiting appends in arrival order, at most one per stream and per key (the
   * batch statement applies them set-wise); the others keep their place for the next batch.
   */
  const take = () => {
    const batch: Waiting[] = [];
    const streams = new Set<string>();
    const keys = new Set<string>();
    const keyed = queue[0]!.append.idempotency !== undefined;
    for (let i = 0; i < queue.length && batch.length < maxBatch;) {
      const { streamId, idempotency } = queue[i]!.append;
      if (
        streams.has(streamId) ||
        (idempotency !== undefined) !== keyed ||
        (idempotency && keys.has(idempotency.key))
      ) {
        i++;
        continue;
      }
      streams.add(streamId);
      if (idempotency) keys.add(idempotency.key);
      batch.push(queue.splice(i, 1)[0]!);
    }
    return batch;
  };

  async function write(batch: Waiting[]) {
    // Stream locks are taken in stream order, so two batches in flight cannot wait on each other.
    const ordered = batch
      .map((waiting, index) => ({ waiting, index }))
      .sort((a, b) =>
        a.waiting.append.streamId < b.waiting.append.streamId
          ? -1
          : a.waiting.append.streamId > b.waiting.append.streamId
            ? 1
            : a.index - b.index,
      )
      .map(({ waiting }) => waiting);
    let rows: BatchRow[];
    try {
      rows = await (ordered[0]!.append.idempotency ? writeKeyed(ordered) : writeUnkeyed(ordered));
    } catch {
      await Promise.all(
        ordered.map(({ append, resolve, reject }) => options.appendAlone(append).then(resolve, reject)),
      );
      return;
    }
    let last = 0;
    for (const row of rows) {
      const { append, resolve, reject } = ordered[row.idx]!;
      switch (row.status) {
        case 'ok': {
          const position = Number(row.last_position);
          last = Math.max(last, position);
          resolve({ streamId: append.streamId, nextRevision: Number(row.next_revision), position, replayed: false });
          break;
        }
        case 'replay':
          resolve({ ...row.replay!, replayed: true });
          break;
        case 'reused':
          reject(new IdempotencyKeyReused(append.idempotency!.key));
          break;
        case 'wrong':
          reject(new WrongExpectedRevision(append.streamId, append.expectedRevision, Number(row.actual)));
          break;
        case 'moved':
        case 'behind':
          reject(
            new ReadStreamsMoved(
              append.decidedOn!.map((at) => at.streamId),
              row.status === 'behind',
            ),
          );
          break;
      }
    }
    if (last > 0) options.onCommitted?.(last);
  }

  const writeKeyed = (ordered: Waiting[]) =>
    db.query<BatchRow>(`SELECT * FROM es.append_batch($1::jsonb)`, [
      JSON.stringify(ordered.map(({ append }) => toItem(append))),
    ]);

  async function writeUnkeyed(ordered: Waiting[]): Promise<BatchRow[]> {
    const written = await db.query<{
      idx: number;
      next_revision: string | null;
      last_position: string | null;
      guard: 'moved' | 'behind' | null;
    }>(APPEND_UNKEYED, [JSON.stringify(ordered.map(({ append }) => toItem(append)))]);
    const refused = written
      .filter((row) => row.next_revision === null && row.guard === null)
      .map((row) => ordered[row.idx]!.append.streamId);
    // What a refused append found (read after the commit: the one statement's snapshot may predate it).
    const found = refused.length > 0 ? await revisionsOf(db, refused) : new Map<string, number>();
    return written.map((row) => ({
      idx: row.idx,
      status: row.guard ?? (row.next_revision === null ? 'wrong' : 'ok'),
      next_revision: row.next_revision,
      last_position: row.last_position,
      actual: row.next_revision === null ? String(found.get(ordered[row.idx]!.append.streamId) ?? -1) : null,
      replay: null,
    }));
  }

  return {
    append(streamId: string, events: readonly NewEvent[], appendOptions: AppendOptions): Promise<AppendResult> {
      if (events.length === 0) return Promise.reject(new Error('append needs at least one event'));
      const { expectedRevision, idempotency, decidedOn } = appendOptions;
      return new Promise<AppendResult>((resolve, reject) => {
        queue.push({ append: { streamId, events, expectedRevision, idempotency, decidedOn }, resolve, reject });
        next();
      });
    },
  };
}

/** Each stream's revision now (a stream not there is left out). */
export async function revisionsOf(sql: Sql, streamIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await sql.query<{ stream_id: string; revision: string }>(
    `SELECT stream_id, revision::text AS revision FROM es.streams WHERE stream_id = ANY($1::text[])`,
    [streamIds],
  );
  return new Map(rows.map((row) => [row.stream_id, Number(row.revision)]));
}

const toItem = ({ streamId, events, expectedRevision, idempotency, decidedOn }: BatchedAppend) => ({
  s: streamId,
  e: expectedRevision === 'no_stream' ? -1 : expectedRevision === 'any' ? null : expectedRevision,
  k: idempotency?.key ?? null,
  f: idempotency?.fingerprint ?? null,
  v: events.map((event) => ({ t: event.type, n: event.schemaVersion, d: event.data, m: event.metadata ?? {} })),
  // Left out when there are none: the statements read a missing "g" as none.
  ...(decidedOn?.length && { g: decidedOn.map(({ streamId: id, revision }) => [id, revision]) }),
});
