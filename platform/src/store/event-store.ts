import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import {
  type AppendFoldedOptions,
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
  type EventStore,
  type ExpectedRevision,
  type Folded,
  IdempotencyKeyReused,
  ReadStreamsMoved,
  type StreamAt,
  type StreamFold,
  WrongExpectedRevision,
} from './port.ts';
import { createAppendBatcher, revisionsOf } from './append-batch.ts';
import { createFoldMemory } from './fold-memory.ts';
import { APPENDED_CHANNEL, createAppendNotifier } from './append-notifier.ts';
import type { Sql, SqlDatabase } from './sql.ts';

/**
 * The event store over either SQL adapter.
 *
 * Global order. Positions come from a sequence when a row is inserted, but transactions commit in
 * their own order: a transaction holding position 5 can commit after one holding 6. A reader that
 * asks for `position > 4` between those two commits sees 6, moves on, and never sees 5. So the
 * log's order is (transaction id, position), and a reader only takes rows of transactions older
 * than every transaction still running (`pg_snapshot_xmin`): nothing can appear behind them later.
 * This is the approach of Emmett and Marten; a long transaction elsewhere holds readers back
 * (visible as lag), it never makes them skip.
 */
export function createEventStore(db: SqlDatabase): EventStore {
  const notify = createAppendNotifier(db);
  const appendAlone = (streamId: string, events: readonly NewEvent[], options: AppendOptions) =>
    db.transaction((tx) => appendInTransaction(tx, streamId, events, options)).then(notify.after);
  const batcher = createAppendBatcher(db, {
    appendAlone: ({ streamId, events, ...options }) => appendAlone(streamId, events, options),
    onCommitted: notify.position,
  });
  const memory = createFoldMemory();
  /** PGlite's one connection never runs a read while a transaction is open: nothing is held back. */
  const holdsBack = db.kind === 'postgres';
  /** The fold remembered (or none) brought up to the stream's last event, and remembered. */
  const foldFrom = <State>(streamId: string, fold: StreamFold<State>, folded: Folded<State>, tail: StoredEvent[]) => {
    if (tail.length === 0) return folded;
    const current = foldTail(fold, folded, tail);
    if (fold !== HISTORY) memory.set(fold, streamId, current);
    return current;
  };
  const readFolded = async <State>(streamId: string, fold: StreamFold<State>) => {
    const known = remembered(fold, streamId);
    return foldFrom(streamId, fold, known, await readStreamAfter(db, streamId, known.revision));
  };
  const remembered = <State>(fold: StreamFold<State>, streamId: string): Folded<State> =>
    (fold !== HISTORY && memory.get(fold, streamId)) || { state: fold.initial(), revision: -1, position: null };
  /** A decision made on a fold ahead of the log means the log went back: forget every fold. */
  const forgetIfAhead = (error: unknown) => {
    if (
      (error instanceof WrongExpectedRevision && typeof error.expected === 'number' && error.actual < error.expected) ||
      (error instanceof ReadStreamsMoved && error.wentBack)
    )
      memory.clear();
    return error;
  };
  /**
   * The decision in turn: the stream locked to the commit, so callers on one stream are decided
   * one after another, each on what the one before appended (a rush gets no false conflicts).
   */
  const appendFoldedLocked = <State>(
    streamId: string,
    fold: StreamFold<State>,
    folded: Folded<State>,
    decide: (state: State) => readonly NewEvent[],
    options: Omit<AppendOptions, 'expectedRevision'>,
  ) =>
    db
      .transaction(async (tx) => {
        if (options.idempotency) {
          const earlier = await claimIdempotency(tx, options.idempotency);
          if (earlier) return earlier;
        }
        // Held to the commit: the next caller on this stream reads what this one appends.
        await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, ${STREAM_LOCK_SEED}))`, [streamId]);
        await checkDecidedOn(tx, options.decidedOn);
        const current = foldFrom(streamId, fold, folded, await readStreamAfter(tx, streamId, folded.revision));
        const events = decide(current.state);
        if (events.length === 0 && current.position !== null) {
          const unchanged = unchangedAt(streamId, current);
          if (options.idempotency) await recordIdempotentResult(tx, options.idempotency.key, unchanged);
          return unchanged;
        }
        const expectedRevision: ExpectedRevision = current.position === null ? 'no_stream' : current.revision;
        // decidedOn checked above, in this transaction.
        const checked = { ...options, decidedOn: undefined, expectedRevision };
        return appendInTransaction(tx, streamId, events, checked, { keyClaimed: true });
      })
      .catch((error) => Promise.reject(forgetIfAhead(error)))
      .then(notify.after);
  const appendFolded = async <State>(
    streamId: string,
    fold: StreamFold<State>,
    decide: (state: State) => readonly NewEvent[],
    options: AppendFoldedOptions<State> = {},
  ): Promise<AppendResult> => {
    // Optimistic first: read, decide, and append expecting the revision read, group-committed
    // with other callers (one round trip for the append instead of a transaction of six).
    const { folded: given, ...appendOptions } = options;
    const folded = given ?? (await readFolded(streamId, fold));
    const decided = appendOptions.inSameTransaction ? null : decideOnFolded(streamId, folded, decide, appendOptions);
    // Nothing to append answers at once, unless streams decided on must be checked (the locked path).
    if (decided?.unchanged && !appendOptions.decidedOn?.length) return decided.unchanged;
    if (decided && !decided.unchanged) {
      try {
        return await batcher.append(streamId, decided.events, { ...appendOptions, expectedRevision: decided.expected });
      } catch (error) {
        if (!(forgetIfAhead(error) instanceof WrongExpectedRevision)) throw error;
        // Someone appended since the read: decided again below, in turn, on what they appended.
      }
    }
    return appendFoldedLocked(streamId, fold, folded, decide, appendOptions);
  };
  return {
    append: (streamId, events, options) =>
      options.inSameTransaction ? appendAlone(streamId, events, options) : batcher.append(streamId, events, options),
    appendDecided: (streamId, decide, { history, ...options } = {}) =>
      appendFolded(streamId, HISTORY, decide, {
        ...options,
        ...(history && { folded: foldTail(HISTORY, EMPTY_HISTORY, history) }),
      }),
    appendFolded,
    readFolded,
    async readFoldedMany(streams) {
      if (streams.length === 0) return []; // No list of values is empty.
      const known = streams.map(({ streamId, fold }) => remembered(fold, streamId));
      // One stream may be asked for with two folds: each ask gets its own tail.
      const rows = await db.query<EventRow & { asked: number }>(
        `SELECT tail.*, asked.i::int - 1 AS asked FROM ${askedStreams(streams.length)}
           CROSS JOIN LATERAL (${SELECT_EVENTS} WHERE stream_id = asked.stream_id AND stream_revision > asked.after) tail
          ORDER BY asked.i, tail.stream_revision_text::bigint`,
        askedParams(
          streams.map((stream) => stream.streamId),
          known.map((folded) => folded.revision),
        ),
      );
      const tails = streams.map((): StoredEvent[] => []);
      for (const row of rows) tails[row.asked]!.push(toStoredEvent(row));
      return streams.map(({ streamId, fold }, index) => foldFrom(streamId, fold, known[index]!, tails[index]!));
    },
    rememberedFolds(streams) {
      const folds: Folded<unknown>[] = [];
      for (const { streamId, fold, newWhenUnknown } of streams) {
        const known = fold !== HISTORY && memory.get(fold, streamId);
        if (!known && !newWhenUnknown) return null;
        folds.push(known || { state: fold.initial(), revision: -1, position: null });
      }
      return folds;
    },
    findIdempotent: (key, fingerprint) => findIdempotent(db, key, fingerprint),
    readStream: (streamId) => readStreamAfter(db, streamId),
    readAll: (after, limit) => readAllAfter(db, after, limit),
    readAllNotingHeldBack: (after, limit) => readLog(db, after, limit, holdsBack),
    async checkpointAt(position) {
      const [row] = await db.query<{ transaction_id: string }>(
        `SELECT transaction_id::text FROM es.events WHERE position = $1`,
        [position],
      );
      return row ? { transactionId: row.transaction_id, position } : null;
    },
    async lagBehind(checkpoint, counted = COUNTED_LAG) {
      const [row] = await db.query<{ events: string; oldest_at: Date | null; span: string | null }>(LAG_BEHIND, [
        checkpoint.transactionId,
        checkpoint.position,
        counted,
      ]);
      const events = Number(row?.events ?? 0);
      return {
        events: events < counted ? events : Math.max(events, Number(row?.span ?? 0)),
        oldestAt: row?.oldest_at?.toISOString() ?? null,
      };
    },
    holdsBack,
    onAppended: (wake) => db.listen(APPENDED_CHANNEL, wake, wake),
  };
}

/**
 * A decision on a stream as read, to append optimistically; null when only the locked path can
 * answer it: a refusal or a decision to change nothing under an idempotency key (the key may
 * hold an earlier result, which is the answer, and an unchanged answer must be stored under it),
 * or nothing decided on a stream that does not exist (nothing to point at).
 */
function decideOnFolded<State>(
  streamId: string,
  folded: Folded<State>,
  decide: (state: State) => readonly NewEvent[],
  options: Omit<AppendOptions, 'expectedRevision'>,
): { events: readonly NewEvent[]; expected: ExpectedRevision; unchanged?: AppendResult } | null {
  let events: readonly NewEvent[];
  try {
    events = decide(folded.state);
  } catch (error) {
    if (options.idempotency) return null;
    throw error;
  }
  const exists = folded.position !== null;
  if (events.length === 0) {
    if (options.idempotency || !exists) return null;
    return { events, expected: folded.revision, unchanged: unchangedAt(streamId, folded) };
  }
  return { events, expected: exists ? folded.revision : 'no_stream' };
}

/** The answer to a decision to change nothing: the stream as it is, at its last event. */
const unchangedAt = (streamId: string, folded: Folded<unknown>): AppendResult => ({
  streamId,
  nextRevision: folded.revision,
  position: folded.position!,
  replayed: false,
});

/**
 * The stream's history as a fold, for decisions on the events themselves (appendDecided): never
 * remembered, since it would keep every event of every stream decided on.
 */
const HISTORY: StreamFold<StoredEvent[]> = { initial: () => [], evolve: (history, event) => [...history, event] };
const EMPTY_HISTORY: Folded<StoredEvent[]> = { state: [], revision: -1, position: null };

/** A fold brought forward by the events after it (all of a new stream's when it is the initial one). */
function foldTail<State>(fold: StreamFold<State>, folded: Folded<State>, tail: StoredEvent[]): Folded<State> {
  const last = tail.at(-1);
  if (!last) return folded;
  const state =
    fold === HISTORY
      ? ([...(folded.state as StoredEvent[]), ...tail] as State)
      : tail.reduce(fold.evolve, folded.state);
  return { state, revision: last.streamRevision, position: last.position };
}

/** The append itself, inside a caller's transaction (the contract tests hold one open). */
export async function appendInTransaction(
  tx: Sql,
  streamId: string,
  events: readonly NewEvent[],
  options: AppendOptions,
  { keyClaimed = false } = {},
): Promise<AppendResult> {
  if (events.length === 0) throw new Error('append needs at least one event');
  const { idempotency } = options;
  if (idempotency && !keyClaimed) {
    const earlier = await claimIdempotency(tx, idempotency);
    if (earlier) return earlier;
  }

  await checkDecidedOn(tx, options.decidedOn);
  const current = await lockStream(tx, streamId);
  const { expectedRevision } = options;
  const expectedMatches =
    expectedRevision === 'any' || (expectedRevision === 'no_stream' ? current === -1 : expectedRevision === current);
  if (!expectedMatches) throw new WrongExpectedRevision(streamId, expectedRevision, current);

  const nextRevision = current + events.length;
  if (current === -1) {
    const created = await tx.query(
      `INSERT INTO es.streams (stream_id, revision) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id`,
      [streamId, nextRevision],
    );
    // Someone created the stream since we looked: their events come first, so we are stale.
    if (created.length === 0)
      throw new WrongExpectedRevision(streamId, expectedRevision, await lockStream(tx, streamId));
  } else {
    await tx.query(`UPDATE es.streams SET revision = $2 WHERE stream_id = $1`, [streamId, nextRevision]);
  }

  await options.inSameTransaction?.(tx);

  const values: unknown[] = [];
  const rows = events.map((event, index) => {
    values.push(
      streamId,
      current + 1 + index,
      event.type,
      event.schemaVersion,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata ?? {}),
    );
    const at = index * 6;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::jsonb, $${at + 6}::jsonb)`;
  });
  const inserted = await tx.query<{ position: string }>(
    `INSERT INTO es.events (stream_id, stream_revision, type, schema_version, data, metadata)
     VALUES ${rows.join(', ')} RETURNING position::text`,
    values,
  );
  const position = Math.max(...inserted.map((row) => Number(row.position)));
  const result: AppendResult = { streamId, nextRevision, position, replayed: false };

  if (idempotency) await recordIdempotentResult(tx, idempotency.key, result);
  return result;
}

/** Throws ReadStreamsMoved unless each stream is at its revision (AppendOptions.decidedOn). */
async function checkDecidedOn(tx: Sql, decidedOn: readonly StreamAt[] | undefined) {
  if (!decidedOn?.length) return;
  const now = await revisionsOf(
    tx,
    decidedOn.map((at) => at.streamId),
  );
  const moved = decidedOn.filter((at) => (now.get(at.streamId) ?? -1) !== at.revision);
  if (moved.length > 0) {
    const wentBack = moved.some((at) => (now.get(at.streamId) ?? -1) < at.revision);
    throw new ReadStreamsMoved(
      decidedOn.map((at) => at.streamId),
      wentBack,
    );
  }
}

/** Any number; it keeps stream locks apart from the other advisory locks the project takes. */
const STREAM_LOCK_SEED = 6_151_723;

/**
 * Claims an idempotency key for this transaction: answers the first result when the key was used
 * before, null when it is this transaction's to use. A concurrent holder of the same key makes
 * the insert wait for its commit (then it answers that result) or its rollback (then it is ours).
 */
async function claimIdempotency(tx: Sql, idempotency: { key: string; fingerprint: string }) {
  const claimed = await tx.query(
    `INSERT INTO es.idempotency (key, fingerprint) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`,
    [idempotency.key, idempotency.fingerprint],
  );
  if (claimed.length > 0) return null;
  return findIdempotent(tx, idempotency.key, idempotency.fingerprint);
}

async function recordIdempotentResult(tx: Sql, key: string, result: AppendResult) {
  await tx.query(`UPDATE es.idempotency SET result = $2::jsonb WHERE key = $1`, [key, JSON.stringify(result)]);
}

/** A stream's events after a revision (-1: all of them), in order. */
async function readStreamAfter(sql: Sql, streamId: string, revision = -1): Promise<StoredEvent[]> {
  const rows = await sql.query<EventRow>(
    `${SELECT_EVENTS} WHERE stream_id = $1 AND stream_revision > $2 ORDER BY stream_revision`,
    [streamId, revision],
  );
  return rows.map(toStoredEvent);
}

async function lockStream(tx: Sql, streamId: string): Promise<number> {
  const [row] = await tx.query<{ revision: string }>(
    `SELECT revision::text FROM es.streams WHERE stream_id = $1 FOR UPDATE`,
    [streamId],
  );
  return row ? Number(row.revision) : -1;
}

async function findIdempotent(sql: Sql, key: string, fingerprint: string): Promise<AppendResult | null> {
  const [row] = await sql.query<{ fingerprint: string; result: AppendResult | null }>(
    `SELECT fingerprint, result FROM es.idempotency WHERE key = $1`,
    [key],
  );
  if (!row) return null;
  if (row.fingerprint !== fingerprint) throw new IdempotencyKeyReused(key);
  return row.result ? { ...row.result, replayed: true } : null;
}

/**
 * The log after `after`, in its order, up to `limit` events, none behind a transaction still
 * running. The batch comes back as one JSON text, parsed at once: a rebuild reads millions of
 * events, and a field at a time (PGlite copies and decodes each) cost a tenth of a PGlite rebuild.
 * The events equal those read row by row (toStoredEvent; event-store.contract.spec.ts).
 */
export async function readAllAfter(sql: Sql, after: Checkpoint, limit: number): Promise<StoredEvent[]> {
  return (await readLog(sql, after, limit, false)).events;
}

/**
 * readAllAfter, and with `noteHeldBack`, in the same statement (the same snapshot), whether
 * committed events after `after` are held back by a transaction still running: when fewer than
 * `limit` came back, those are exactly the committed events after the last one read.
 */
async function readLog(sql: Sql, after: Checkpoint, limit: number, noteHeldBack: boolean) {
  const [row] = await sql.query<{ batch: string | null; held_back: boolean }>(READ_LOG, [
    after.transactionId,
    after.position,
    limit,
    noteHeldBack,
  ]);
  const heldBack = row?.held_back ?? false;
  return { events: eventsOfBatch(row?.batch ?? null), heldBack };
}

/** The events of a batch read as one JSON text of EVENT_TUPLEs (null: none). */
export const eventsOfBatch = (batch: string | null): StoredEvent[] =>
  batch === null
    ? []
    : (JSON.parse(batch) as EventTuple[]).map(
        ([position, transactionId, streamId, streamRevision, type, schemaVersion, data, metadata, createdAt]) => ({
          position,
          transactionId,
          streamId,
          streamRevision,
          type,
          schemaVersion,
          data,
          metadata,
          createdAt,
        }),
      );

/** How many events lagBehind counts one by one; beyond it, it estimates (EventStore.lagBehind). */
const COUNTED_LAG = 100_000;

/**
 * lagBehind's statement: the events after the checkpoint, counted up to $3 in the log's order
 * (an index range, stopping there), the oldest append among them, and the positions the log spans
 * beyond the checkpoint. Counting every one made each health check during a catch-up of a
 * million events read a million index entries.
 */
export const LAG_BEHIND = `SELECT count(*)::text AS events, min(created_at) AS oldest_at,
         ((SELECT max(position) FROM es.events) - $2::bigint)::text AS span
    FROM (SELECT created_at FROM es.events WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
           ORDER BY transaction_id, position LIMIT $3) behind`;

/** created_at as Date.toISOString() writes it: UTC, milliseconds (truncated, as a Date from the driver). */
const ISO_CREATED_AT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * readLog's statement: $1 and $2 the checkpoint, $3 the limit, $4 whether to note events held
 * back. Either part looks at the rows it answers, not the rest of the log (a projector catching
 * up on a long log reads it batch after batch; log-read-cost.spec.ts): committed events after the
 * checkpoint are held back exactly when the log's last event is after it and not below the oldest
 * running transaction, since any such event is at or before the last one. Asked as "any event
 * after the checkpoint and not below", PostgreSQL went through every event up to the end of the
 * log for each batch (its plan scanned the whole table), making a catch-up on a million events
 * take minutes.
 */
/** An event of es.events as the JSON array eventsOfBatch reads. */
export const EVENT_TUPLE = `json_build_array(position, transaction_id::text, stream_id, stream_revision, type,
              schema_version, data, metadata, ${ISO_CREATED_AT})`;

export const READ_LOG = `SELECT (SELECT json_agg(${EVENT_TUPLE} ORDER BY transaction_id, position)
               FROM (SELECT * FROM es.events
                      WHERE (transaction_id, position) > ($1::xid8, $2::bigint)
                        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                      ORDER BY transaction_id, position
                      LIMIT $3) events)::text AS batch,
            $4::boolean AND EXISTS (SELECT 1 FROM (SELECT transaction_id, position FROM es.events
                                                    ORDER BY transaction_id DESC, position DESC LIMIT 1) last
                                     WHERE (last.transaction_id, last.position) > ($1::xid8, $2::bigint)
                                       AND last.transaction_id >= pg_snapshot_xmin(pg_current_snapshot())) AS held_back`;

type EventTuple = [number, string, string, number, string, number, unknown, StoredEvent['metadata'], string];

/** The events at these global positions, in the log's order (a projection catching up on what it missed). */
export async function readEventsAt(sql: Sql, positions: readonly number[]): Promise<StoredEvent[]> {
  const rows = await sql.query<EventRow>(
    `${SELECT_EVENTS} WHERE position = ANY($1::bigint[]) ORDER BY transaction_id, position`,
    [positions],
  );
  return rows.map(toStoredEvent);
}

/**
 * The streams readFoldedMany asks for, as `asked (stream_id, after, i)`: up to FEW_STREAMS of them
 * (a command reads two or three) as a list of values, so that PostgreSQL knows how many rows it
 * will have and PGlite's prepared statement keeps one generic plan (with two lists as
 * parameters, PostgreSQL plans it anew on most calls); more as two lists.
 */
const FEW_STREAMS = 8;
const askedStreams = (count: number) =>
  count > FEW_STREAMS
    ? 'unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS asked (stream_id, after, i)'
    : `(VALUES ${Array.from({ length: count }, (_, i) => `($${2 * i + 1}::text, $${2 * i + 2}::bigint, ${i + 1})`).join(', ')}) AS asked (stream_id, after, i)`;
const askedParams = (streamIds: string[], after: number[]) =>
  streamIds.length > FEW_STREAMS ? [streamIds, after] : streamIds.flatMap((streamId, i) => [streamId, after[i]]);

/**
 * Columns come back as text under other names: a select-list alias named like its column would
 * make ORDER BY sort the text ('10' before '9'), not the number.
 */
const SELECT_EVENTS = `SELECT position::text AS position_text, transaction_id::text AS transaction_id_text, stream_id,
  stream_revision::text AS stream_revision_text, type, schema_version, data, metadata, created_at FROM es.events`;

interface EventRow {
  position_text: string;
  transaction_id_text: string;
  stream_id: string;
  stream_revision_text: string;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: StoredEvent['metadata'];
  created_at: Date;
}

const toStoredEvent = (row: EventRow): StoredEvent => ({
  position: Number(row.position_text),
  transactionId: row.transaction_id_text,
  streamId: row.stream_id,
  streamRevision: Number(row.stream_revision_text),
  type: row.type,
  schemaVersion: row.schema_version,
  data: row.data,
  metadata: row.metadata,
  createdAt: row.created_at.toISOString(),
});
