import type { MessagePort } from 'node:worker_threads';

/**
 * The little of a SQL database that the event store, the command side and the projector need.
 * Two adapters implement it: PostgreSQL through `pg` (./postgres.ts) and PGlite (./pglite.ts),
 * so every piece of SQL in the project is written once and runs on both.
 */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Delivers `payload` to the listeners of `channel` (listen) without a statement: PGlite's, whose
   * listeners are all in this process (one process opens its files). In a transaction, at its
   * commit, as NOTIFY would. Use notify() below, which falls back to NOTIFY.
   */
  notify?(channel: string, payload: string): void;
  /**
   * Loads `text`, rows in COPY's text format (copy-text.ts), into `columns` of `table` (schema
   * included) in one COPY: PostgreSQL parses it at about a third of the cost of the same rows
   * sent as arrays. A transaction on PostgreSQL has it; PGlite has not (its COPY goes through a
   * file in its own file system and a statement planned anew, which made a rebuild a seventh
   * slower), and copyRows (read-models/table.ts) falls back to an INSERT there.
   */
  copyIn?(table: string, columns: readonly string[], text: string): Promise<void>;
}

/** NOTIFY: at once, or at the commit of the transaction `sql` runs in; never to a rolled-back one's listeners. */
export async function notify(sql: Sql, channel: string, payload: string): Promise<void> {
  if (sql.notify) return sql.notify(channel, payload);
  await sql.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
}

/** notify() for several notifications, in this order, in one statement. */
export async function notifyAll(sql: Sql, notifications: readonly (readonly [channel: string, payload: string])[]) {
  if (sql.notify) {
    for (const [channel, payload] of notifications) sql.notify(channel, payload);
    return;
  }
  if (notifications.length === 0) return;
  await sql.query(notifyAllStatement(1), notifyAllParams(notifications));
}

/**
 * The statement notifyAll sends where NOTIFY needs one, its two parameters numbered from `first`:
 * for a statement that sends them along with other work (a data-modifying WITH before it).
 */
export const notifyAllStatement = (first: number) =>
  `SELECT count(pg_notify(channel, payload)) FROM unnest($${first}::text[], $${first + 1}::text[]) AS n (channel, payload)`;

export const notifyAllParams = (notifications: readonly (readonly [channel: string, payload: string])[]) => [
  notifications.map(([channel]) => channel),
  notifications.map(([, payload]) => payload),
];

export interface SqlDatabase extends Sql {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel`, and `onReconnect` after a lost listening
   * connection is back (notifications sent meanwhile are lost, so the caller should re-read), and
   * `onLost` when it is lost or could not be opened: until `onReconnect`, nothing is heard.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onReconnect?: () => void,
    onLost?: () => void,
  ): Promise<() => Promise<void>>;
  /**
   * Sets a configuration parameter (`set_config`) on every connection this database uses, now and
   * later, outside any transaction. The value lives in each session only: never in a table, a
   * dump or a statement's text. Needs session pooling (not PgBouncer's transaction mode).
   */
  useSessionSetting(name: string, value: string): Promise<void>;
  /**
   * PGlite only: starts `entry` (a module exporting `startBeside`, pglite-messages.ts) in the
   * embedded database's own thread with `data`, talking to this thread on `port` (transferred):
   * its statements and transactions run there without a hop between threads (the projector's).
   * Resolves once it has started; rejects with why it could not.
   */
  startBeside?(entry: URL, data: unknown, port: MessagePort): Promise<void>;
  /** Its connections (PostgreSQL's pool): in all, idle, and callers waiting for one. */
  stats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** PostgreSQL's error code, when the error came from the server. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';

/**
 * `plain`, or, if it fails on a unique key, `instead`, from a savepoint named `name` (so the
 * transaction `sql` runs in goes on): a plain insert where a row already there is rare, the upsert
 * only when one is. PostgreSQL carries out an upsert as a speculative insertion, which costs more
 * than a plain insert of the same rows, conflict or not (docs/performance.md, machines N and AE).
 */
export async function unlessUniqueViolation<T>(
  sql: Sql,
  name: string,
  plain: () => Promise<T>,
  instead: () => Promise<T>,
): Promise<T> {
  await sql.query(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await plain();
  } catch (error) {
    if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
    await sql.query(`ROLLBACK TO SAVEPOINT ${name}`);
    result = await instead();
  }
  await sql.query(`RELEASE SAVEPOINT ${name}`);
  return result;
}

/**
 * Whether the error says the database cannot be reached right now (restarting, shutting down,
 * a connection refused or cut), rather than that the statement was wrong: worth trying again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = sqlState(error) ?? '';
  if (code.startsWith('08') || ['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE'].includes(code)) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}

/** Whether the error says a table or schema does not exist (yet): nothing was created there so far. */
export const isMissingTable = (error: unknown) => ['42P01', '3F000'].includes(sqlState(error) ?? '');
