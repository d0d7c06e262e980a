import type { MessagePort } from 'node:worker_threads';
import type { ThreadError } from '../threads/typescript-worker.ts';
import type { SqlDatabase } from './sql.ts';

/** What the embedded database's thread is started with. */
export interface PgliteStart {
  /** A folder, or undefined for an in-memory database. */
  dataDir: string | undefined;
}

/**
 * Asked of the embedded database's thread, each answered once under its `id`: a statement (in
 * the transaction `tx`, or on its own), a transaction begun (answered with its number once it
 * holds the database) or ended, a module started beside the database (given `port` to talk on),
 * closing. A notification is told both ways without an answer.
 */
export type ToPglite =
  | { kind: 'query'; id: number; tx: number | null; text: string; params: readonly unknown[] | undefined }
  | { kind: 'begin'; id: number }
  | { kind: 'end'; id: number; tx: number; commit: boolean }
  | { kind: 'beside'; id: number; entry: string; data: unknown; port: MessagePort }
  | { kind: 'close'; id: number }
  | { kind: 'notification'; channel: string; payload: string };

export type FromPglite =
  | { kind: 'ready' }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'done'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: ThreadError }
  | { kind: 'notification'; channel: string; payload: string };

/**
 * A module run beside the embedded database (SqlDatabase.startBeside) exports this: it is given
 * the database in its own thread, without a hop between threads for each statement.
 */
export type StartBeside = (db: SqlDatabase, port: MessagePort, data: unknown) => Promise<void>;
