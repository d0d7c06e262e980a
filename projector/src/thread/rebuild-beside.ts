import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { type DataKeys, dataKeysInUse, useDataKeys } from '@portal/platform/privacy/data-key';
import { createEventStore } from '@portal/platform/store/event-store';
import type { StartBeside } from '@portal/platform/store/pglite-messages';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { type ThreadError, fromThreadError, threadError } from '@portal/platform/threads/typescript-worker';
import { projections } from '../projections/index.ts';
import { type RebuildOptions, rebuildReadModels } from '../rebuild.ts';

type Told =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'indexing' }
  | { kind: 'done'; events: number }
  | { kind: 'failed'; error: ThreadError };

/**
 * Rebuilds every read model (rebuildReadModels) where the database is: on PGlite in its own
 * thread, whose transactions then never wait for this thread between statements; elsewhere here.
 */
export async function rebuildWhereTheDatabaseIs(
  db: SqlDatabase,
  options: Pick<RebuildOptions, 'onProgress' | 'onIndexing'> = {},
): Promise<{ events: number }> {
  if (!db.startBeside) return rebuildReadModels({ db, store: createEventStore(db), projections, ...options });
  const { port1, port2 } = new MessageChannel();
  const finished = new Promise<{ events: number }>((resolve, reject) => {
    port1.on('message', (told: Told) => {
      if (told.kind === 'progress') options.onProgress?.(told.done, told.total);
      else if (told.kind === 'indexing') options.onIndexing?.();
      else if (told.kind === 'done') resolve({ events: told.events });
      else reject(fromThreadError(told.error));
    });
    port1.once('close', () => reject(new Error("the rebuild in the embedded database's thread ended")));
  });
  await db.startBeside(new URL(import.meta.url), { dataKeys: dataKeysInUse() }, port2);
  try {
    return await finished;
  } finally {
    port1.close();
  }
}

/** The rebuild in the embedded database's thread, telling the portal's thread how it goes. */
export const startBeside: StartBeside = async (db, port: MessagePort, data) => {
  const { dataKeys } = data as { dataKeys: DataKeys };
  useDataKeys({ current: Buffer.from(dataKeys.current), previous: dataKeys.previous.map((key) => Buffer.from(key)) });
  const tell = (told: Told) => port.postMessage(told);
  void rebuildReadModels({
    db,
    store: createEventStore(db),
    projections,
    onProgress: (done, total) => tell({ kind: 'progress', done, total }),
    onIndexing: () => tell({ kind: 'indexing' }),
  }).then(
    ({ events }) => tell({ kind: 'done', events }),
    (error: unknown) => tell({ kind: 'failed', error: threadError(error) }),
  );
};
