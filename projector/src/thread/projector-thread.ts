import { MessageChannel } from 'node:worker_threads';
import { dataKeysInUse } from '@portal/platform/privacy/data-key';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { fromThreadError, startTypeScriptWorker } from '@portal/platform/threads/typescript-worker';
import type { KafkaProjectorOptions } from '../kafka/kafka-projector.ts';
import type { Projector, ProjectorHealth } from '../projector.ts';
import type { FromThread, ThreadStart, ToThread } from './messages.ts';

/** How long stop() waits for the thread to finish its batch and close its connections. */
const STOP_WAIT_MS = 8000;

export interface ProjectorThreadOptions {
  /**
   * The PostgreSQL database of the log and the read models (the thread opens its own
   * connections), or the embedded one, whose own thread the projector then runs in (startBeside).
   */
  database: { connectionString: string } | { embedded: SqlDatabase };
  kafka?: KafkaProjectorOptions['kafka'] | null;
  pollMs?: number;
  /** Told of each failed batch (retried) and, should it happen, of the thread's own end. */
  onError?: (error: unknown) => void;
}

/** How this thread talks to the projector's: a worker of its own, or a port to the embedded database's. */
interface Channel {
  port: { postMessage(message: ToThread): void; on(event: 'message', listener: (message: FromThread) => void): void };
  /** Resolves with why, once the projector's thread (or port) has ended. */
  ended: Promise<string>;
  end(): Promise<void>;
}

/**
 * The projector (startProjector, with every projection) in a thread other than the requests':
 * on PostgreSQL a worker of its own with its own connections; on PGlite, the embedded database's
 * thread, where its transactions never wait for this thread between statements. Either way the
 * requests and the projector no longer take turns on one event loop, so under load a scan
 * reaches the read models without waiting behind the requests queued before it (README,
 * Performance). It uses the data keys this process uses. Resolves once it follows the log, or
 * rejects with the reason it could not start (a rebuild included, when one is due). Should the
 * thread ever end on its own, `state()` says it is not running (health answers 503).
 */
export async function startProjectorThread(options: ProjectorThreadOptions): Promise<Projector> {
  const start: ThreadStart = {
    connectionString: 'connectionString' in options.database ? options.database.connectionString : null,
    kafka: options.kafka ?? null,
    dataKeys: dataKeysInUse(),
    pollMs: options.pollMs,
  };
  const channel =
    'embedded' in options.database ? await besideEmbedded(options.database.embedded, start) : ownWorker(start);
  let state: { running: boolean; lastError: string | null } = { running: false, lastError: null };
  let member: unknown = null;
  let stopping = false;
  let running = false;
  /** Why the thread ended, once it has. */
  let gone: string | null = null;
  let nextId = 0;
  const asked = new Map<number, { resolve(health: ProjectorHealth): void; reject(error: Error): void }>();
  let confirmStopped = () => {};
  const stopped = new Promise<void>((resolve) => (confirmStopped = resolve));

  const started = new Promise<void>((resolve, reject) => {
    channel.port.on('message', (message: FromThread) => {
      switch (message.kind) {
        case 'started':
          running = true;
          return resolve();
        case 'failed':
          return reject(fromThreadError(message.error));
        case 'error':
          return options.onError?.(fromThreadError(message.error));
        case 'state':
          state = { running: message.running, lastError: message.lastError };
          member = message.member;
          return;
        case 'stopped':
          return confirmStopped();
        case 'health': {
          const waiting = asked.get(message.id);
          asked.delete(message.id);
          if (message.health) waiting?.resolve(message.health);
          else waiting?.reject(fromThreadError(message.error!));
          return;
        }
      }
    });
    void channel.ended.then((why) => {
      gone = why;
      state = { running: false, lastError: stopping ? null : gone };
      // Once it followed the log, an end not asked for is loud (before that, starting fails).
      if (running && !stopping) options.onError?.(new Error(gone));
      for (const waiting of asked.values()) waiting.reject(new Error(gone));
      asked.clear();
      reject(new Error(gone));
    });
  });
  await started.catch(async (error: unknown) => {
    await channel.end();
    throw error;
  });

  return {
    state: () => ({ ...state }),
    health: () =>
      new Promise<ProjectorHealth>((resolve, reject) => {
        if (gone) return reject(new Error(gone));
        const id = nextId++;
        asked.set(id, { resolve, reject });
        channel.port.postMessage({ kind: 'health', id } satisfies ToThread);
      }),
    ...(options.kafka ? { member: () => member as ReturnType<NonNullable<Projector['member']>> } : {}),
    async stop() {
      if (stopping) return void (await channel.ended);
      stopping = true;
      channel.port.postMessage({ kind: 'stop' } satisfies ToThread);
      // Its batch in flight committed and its connections closed; a thread that does not answer is ended.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
      await Promise.race([stopped, channel.ended, late]);
      clearTimeout(timer);
      await channel.end();
    },
  };
}

/** A worker thread of the projector's own, with its own connections to PostgreSQL. */
function ownWorker(start: ThreadStart): Channel {
  const worker = startTypeScriptWorker(new URL('./worker.ts', import.meta.url), start);
  const ended = new Promise<string>((resolve) => {
    let why: string | null = null;
    // An exception the thread did not catch: it ends after this ('exit' says so).
    worker.on('error', (error) => (why = error.message));
    worker.once('exit', (code) => resolve(why ?? `the projector's thread ended (exit code ${code})`));
  });
  return { port: worker, ended, end: () => worker.terminate().then(() => {}) };
}

/** The projector in the embedded database's thread (beside-pglite.ts), on a port of its own. */
async function besideEmbedded(db: SqlDatabase, start: ThreadStart): Promise<Channel> {
  if (!db.startBeside) throw new Error('only the embedded database (PGlite) runs a projector beside it');
  const { port1, port2 } = new MessageChannel();
  const ended = new Promise<string>((resolve) =>
    port1.once('close', () => resolve("the projector in the embedded database's thread ended")),
  );
  await db.startBeside(new URL('./beside-pglite.ts', import.meta.url), start, port2);
  return {
    port: port1,
    ended,
    async end() {
      port1.close();
      await ended;
    },
  };
}
