import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { importModule } from '../threads/bundle.ts';
import { threadError } from '../threads/typescript-worker.ts';
import { localPglite } from './pglite-local.ts';
import { createPglite } from './pglite-snapshot.ts';
import type { FromPglite, PgliteStart, StartBeside, ToPglite } from './pglite-messages.ts';

/**
 * The embedded database in a thread of its own (pglite.ts): PGlite runs PostgreSQL's WebAssembly
 * and its protocol layer here, answering the portal's thread message by message, and the modules
 * started beside it (the projector) use it here directly.
 */
const port = parentPort!;
const start = workerData as PgliteStart;
const post = (message: FromPglite) => port.postMessage(message);

/** Thrown inside a transaction the portal's thread asked to roll back. */
const ROLLBACK = Symbol('rollback');

let db: PGlite;
try {
  // A new database from the snapshot npm ci made, when there is one (pglite-snapshot.ts).
  db = await createPglite(start.dataDir);
} catch (error) {
  post({ kind: 'failed', error: threadError(error) });
  process.exit(1);
}
const local = localPglite(db, (channel, payload) => post({ kind: 'notification', channel, payload }));

/** The open transactions of the portal's thread, by number: their PGlite handle and how to end them. */
const open = new Map<number, { tx: Transaction; end(commit: boolean, id: number): void }>();

function answer(id: number, work: () => Promise<unknown>) {
  work().then(
    (value) => post({ kind: 'done', id, value }),
    (error: unknown) => post({ kind: 'error', id, error: threadError(error) }),
  );
}

function begin(id: number) {
  let ending: { commit: boolean; id: number } | undefined;
  let end = (_: { commit: boolean; id: number }) => {};
  const ended = new Promise<{ commit: boolean; id: number }>((resolve) => (end = resolve));
  db.transaction(async (tx) => {
    open.set(id, { tx, end: (commit, endId) => end({ commit, id: endId }) });
    post({ kind: 'done', id, value: id });
    ending = await ended;
    if (!ending.commit) throw ROLLBACK;
  })
    .then(
      () => post({ kind: 'done', id: ending!.id, value: null }),
      (error: unknown) => {
        // Failing to begin is answered to `begin`; failing to commit or roll back, to `end`.
        if (!ending) return post({ kind: 'error', id, error: threadError(error) });
        if (error === ROLLBACK) return post({ kind: 'done', id: ending.id, value: null });
        post({ kind: 'error', id: ending.id, error: threadError(error) });
      },
    )
    .finally(() => open.delete(id));
}

port.on('message', (message: ToPglite) => {
  switch (message.kind) {
    case 'query': {
      const { tx, text, params } = message;
      return answer(message.id, async () => {
        const on = tx === null ? db : open.get(tx)?.tx;
        if (!on) throw new Error(`transaction ${tx} is not open`);
        return local.statement(on, text, params);
      });
    }
    case 'begin':
      return begin(message.id);
    case 'end': {
      const transaction = open.get(message.tx);
      if (transaction) return transaction.end(message.commit, message.id);
      const error = threadError(new Error(`transaction ${message.tx} is not open`));
      return post({ kind: 'error', id: message.id, error });
    }
    case 'notification':
      return local.deliver(message.channel, message.payload);
    case 'beside':
      return answer(message.id, async () => {
        const module = (await importModule(message.entry)) as { startBeside: StartBeside };
        await module.startBeside(local.database, message.port, message.data);
      });
    case 'close':
      return answer(message.id, async () => {
        await db.close();
        // Answered before the thread ends (its modules beside it with it).
        setImmediate(() => process.exit(0));
      });
  }
});
post({ kind: 'ready' });
