import type { MessagePort } from 'node:worker_threads';
import { fromThreadError, startTypeScriptWorker, threadError } from '../threads/typescript-worker.ts';
import { inProcessNotifications } from './in-process-notifications.ts';
import type { FromPglite, PgliteStart, ToPglite } from './pglite-messages.ts';
import type { Sql, SqlDatabase } from './sql.ts';

/** A question for the database's thread, before `ask` numbers it (parameters and answers are structured-cloned). */
type Ask = ToPglite extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

/**
 * PostgreSQL compiled to WebAssembly (PGlite), for the embedded default: `dataDir` is a folder, or
 * undefined for an in-memory database. It runs in a worker thread of its own (pglite-worker.ts),
 * so the database's work and the portal's (HTTP, decisions) use both cores instead of taking
 * turns on one; the projector runs beside it there (startBeside), its transactions never waiting
 * for this thread between statements. One connection: transactions run one at a time, and a
 * statement outside them waits for the one running to end.
 */
export async function openPglite(dataDir?: string): Promise<SqlDatabase & Required<Pick<SqlDatabase, 'startBeside'>>> {
  const worker = startTypeScriptWorker(new URL('./pglite-worker.ts', import.meta.url), {
    dataDir,
  } satisfies PgliteStart);
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  /** Why the thread ended, once it has: every question after that fails with it. */
  let gone: Error | null = null;

  // NOTIFY without a statement: every listener is in this process, in this thread or the database's.
  const notifications = inProcessNotifications((channel, payload) => {
    if (!gone) worker.postMessage({ kind: 'notification', channel, payload } satisfies ToPglite);
  });

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromPglite) => {
      switch (message.kind) {
        case 'ready':
          return resolve();
        case 'failed':
          return reject(fromThreadError(message.error));
        case 'done':
        case 'error': {
          const asked = waiting.get(message.id);
          waiting.delete(message.id);
          if (waiting.size === 0) worker.unref();
          if (message.kind === 'done') asked?.resolve(message.value);
          else asked?.reject(fromThreadError(message.error));
          return;
        }
        case 'notification':
          return notifications.deliver(message.channel, message.payload);
      }
    });
    worker.on('error', (error) => {
      gone = error;
      reject(error);
    });
    worker.once('exit', (code) => {
      gone ??= new Error(`the embedded database's thread ended (exit code ${code})`);
      reject(gone);
      for (const asked of waiting.values()) asked.reject(gone);
      waiting.clear();
    });
  });
  await ready;
  // Like a database in this thread, it keeps the process alive only while it is asked something.
  worker.unref();

  const ask = <T>(message: Ask, transfer?: MessagePort[]) =>
    new Promise<T>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        worker.postMessage({ ...message, id } as ToPglite, transfer);
      } catch (error) {
        // A parameter that cannot be cloned (a function): the statement's own error, as PGlite's would be.
        waiting.delete(id);
        if (waiting.size === 0) worker.unref();
        reject(fromThreadError(threadError(error)));
      }
    });
  const query = <Row>(tx: number | null, text: string, params?: readonly unknown[]) =>
    ask<Row[]>({ kind: 'query', tx, text, params });

  return {
    kind: 'pglite',
    query: (text, params) => query(null, text, params),
    notify: notifications.notify,
    async transaction(work) {
      const tx = await ask<number>({ kind: 'begin' });
      const held = notifications.held();
      const sql: Sql = { query: (text, params) => query(tx, text, params), notify: held.notify };
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work(sql);
      } catch (error) {
        await ask({ kind: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await ask({ kind: 'end', tx, commit: true });
      held.release();
      return result;
    },
    listen: notifications.listen,
    async startBeside(entry, data, port) {
      await ask({ kind: 'beside', entry: entry.href, data, port }, [port]);
    },
    async useSessionSetting(name, value) {
      await query(null, `SELECT set_config($1, $2, false)`, [name, value]);
    },
    async close() {
      if (!gone) await ask({ kind: 'close' });
      worker.ref();
      await new Promise<void>((resolve) => (gone ? resolve() : worker.once('exit', () => resolve())));
    },
  };
}
