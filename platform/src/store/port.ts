import type { NewEvent, StoredEvent } from '@portal/contracts/envelope';
import type { Sql } from './sql.ts';

/**
 * Where in the log a reader is. The log's global order is (transactionId, position): a reader
 * that only follows `position` can skip an event whose transaction commits after a later one's
 * (see ./event-store.ts).
 */
export interface Checkpoint {
  transactionId: string;
  position: number;
}
export const START: Checkpoint = { transactionId: '0', position: 0 };

/** `no_stream`: the stream must not exist yet; a number: its last revision must be that. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
  /**
   * The command's idempotency key and a fingerprint of its request. A key seen before with the
   * same fingerprint appends nothing and answers the first result; with another fingerprint it is
   * refused (IdempotencyKeyReused).
   */
  idempotency?: { key: string; fingerprint: string };
  /** Work on the command side's own tables that must commit or fail with the events. */
  inSameTransaction?: (tx: Sql) => Promise<void>;
  /**
   * Other streams the decision was made on, each at the revision the caller took it to be at
   * without reading it (a fold the store remembered, EventStore.rememberedFolds; -1: no such
   * stream): the append is refused with ReadStreamsMoved, nothing of it written and its key
   * released, unless each is still there when it is written.
   */
  decidedOn?: readonly StreamAt[];
}

/** A stream at a revision (-1: not yet there). */
export interface StreamAt {
  streamId: string;
  revision: number;
}

export type AppendDecidedOptions = Omit<AppendOptions, 'expectedRevision'> & {
  /** The stream as the caller has just read it: decided on first instead of reading it again. */
  history?: StoredEvent[];
};

/**
 * A stream read as one value: where it starts and how each event changes it. `evolve` must not
 * change the state it is given (answer a new one): the store keeps folds it has made and folds
 * later events onto them. The store remembers recent folds by this object's identity, so make one
 * per kind of value, once.
 */
export interface StreamFold<State> {
  initial(): State;
  evolve(state: State, event: StoredEvent): State;
}

/** A stream folded through its last event; revision -1 and position null: no such stream yet. */
export interface Folded<State> {
  state: State;
  revision: number;
  position: number | null;
}

export type AppendFoldedOptions<State> = Omit<AppendOptions, 'expectedRevision'> & {
  /** The stream as the caller has just read it: decided on first instead of reading it again. */
  folded?: Folded<State>;
};

export interface AppendResult {
  streamId: string;
  /** The stream's revision after the append. */
  nextRevision: number;
  /** The global position of the last event appended. */
  position: number;
  /** True when this answer is the first result of an earlier append with the same key. */
  replayed: boolean;
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Reads the stream, decides on what was read and appends what was decided, and only if nobody
   * appended in between: every decision appended was made on the state just before it. First
   * optimistically (the append expects the revision read and goes with other callers' appends in
   * one commit); a caller who finds the stream moved is decided again with the stream locked, so
   * callers on one stream are then decided one after another, each on the state the one before
   * left, and a rush gets a real decision for everyone instead of conflicts. `decide` must be
   * pure: it may be called twice. It may throw to refuse (nothing is appended, nothing stored
   * under the key); when it decides nothing on an existing stream, the answer points at the
   * stream as it is. A key seen before answers its first result (`replayed`), whatever was decided.
   */
  appendDecided(
    streamId: string,
    decide: (history: StoredEvent[]) => readonly NewEvent[],
    options?: AppendDecidedOptions,
  ): Promise<AppendResult>;
  /**
   * appendDecided on a folded stream: `decide` gets the stream's state, folded from the state the
   * store last folded for this stream (or `options.folded`) and the events appended since, so a
   * long stream is not read or folded again for every decision.
   */
  appendFolded<State>(
    streamId: string,
    fold: StreamFold<State>,
    decide: (state: State) => readonly NewEvent[],
    options?: AppendFoldedOptions<State>,
  ): Promise<AppendResult>;
  /**
   * The stream folded through its last event. The store remembers the folds it made (the most
   * recently used streams, per process) and reads only the events appended since: any writer,
   * in this process or another, appends through the log, so what was folded stays true.
   */
  readFolded<State>(streamId: string, fold: StreamFold<State>): Promise<Folded<State>>;
  /** Several folded streams in one read, in the order asked. */
  readFoldedMany(streams: readonly { streamId: string; fold: StreamFold<unknown> }[]): Promise<Folded<unknown>[]>;
  /**
   * The folds this store remembers of the streams, without reading anything, in the order asked;
   * a stream marked `newWhenUnknown` and not remembered is taken to be new (revision -1). Null
   * when one is neither. Another process may have appended since: a decision made on them must be
   * appended with them as `decidedOn`, and made again on a read when it is refused.
   */
  rememberedFolds(
    streams: readonly { streamId: string; fold: StreamFold<unknown>; newWhenUnknown?: boolean }[],
  ): Folded<unknown>[] | null;
  /** The first result for an idempotency key, or null when the key is new. */
  findIdempotent(key: string, fingerprint: string): Promise<AppendResult | null>;
  readStream(streamId: string): Promise<StoredEvent[]>;
  /** Committed events after `after` in the global order, never skipping one that commits later. */
  readAll(after: Checkpoint, limit: number): Promise<StoredEvent[]>;
  /**
   * readAll, and whether committed events after those read are still held back by a running
   * transaction (told only when fewer than `limit` came back; always false unless holdsBack).
   * One statement: a follower asks it after every append, where a second would cost a round trip.
   */
  readAllNotingHeldBack(after: Checkpoint, limit: number): Promise<{ events: StoredEvent[]; heldBack: boolean }>;
  /** Where the event at a global position stands in the global order (null: no such event). */
  checkpointAt(position: number): Promise<Checkpoint | null>;
  /**
   * How far `checkpoint` is behind the log: committed events after it, including any a long
   * transaction elsewhere still holds back from readers, and when the oldest of them was appended.
   * Counted one by one up to `counted` (100,000); beyond that, estimated from the global positions
   * the log spans after the checkpoint (a rolled-back append leaves a gap, and appends committed
   * out of their positions' order move it by a few), and the oldest is that of the first `counted`.
   */
  lagBehind(checkpoint: Checkpoint, counted?: number): Promise<{ events: number; oldestAt: string | null }>;
  /**
   * Whether a read of the log may leave committed events behind a transaction still running
   * (readAll): false on PGlite, whose one connection runs a read only when no transaction is open.
   */
  readonly holdsBack: boolean;
  /** Calls `wake` when something may have been appended (NOTIFY, or a reconnect that lost some). */
  onAppended(wake: () => void): Promise<() => Promise<void>>;
}

export class WrongExpectedRevision extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number,
  ) {
    super(`stream ${streamId}: expected revision ${expected}, found ${actual}`);
    this.name = 'WrongExpectedRevision';
  }
}

/**
 * An append refused because streams its decision was made on (AppendOptions.decidedOn, all named
 * in `streamIds`) moved: decide again on the streams as read. `wentBack`: one is behind the
 * revision taken (the log was restored under this process), so what the store remembers is
 * forgotten.
 */
export class ReadStreamsMoved extends Error {
  constructor(
    readonly streamIds: readonly string[],
    readonly wentBack: boolean,
  ) {
    super(`streams moved since the decision: ${streamIds.join(', ')}`);
    this.name = 'ReadStreamsMoved';
  }
}

export class IdempotencyKeyReused extends Error {
  constructor(readonly key: string) {
    super(`idempotency key ${key} was used for a different request`);
    this.name = 'IdempotencyKeyReused';
  }
}

/** Is `a` at or before `b` in the log's global order? */
export function isAtOrBefore(a: Checkpoint, b: Checkpoint): boolean {
  const ax = BigInt(a.transactionId);
  const bx = BigInt(b.transactionId);
  return ax < bx || (ax === bx && a.position <= b.position);
}

export const checkpointOf = (event: StoredEvent): Checkpoint => ({
  transactionId: event.transactionId,
  position: event.position,
});
