import { Worker } from 'node:worker_threads';
import { dataKeysInUse } from '@portal/platform/privacy/data-key';
import type { KafkaProjectorOptions } from '../kafka/kafka-projector.ts';
import type { Projector, ProjectorHealth } from '../projector.ts';
import { type FromThread, type ThreadStart, type ToThread, fromThreadError } from './messages.ts';

/** How long stop() waits for the thread to finish its batch and close its connections. */
const STOP_WAIT_MS = 8000;

export interface ProjectorThreadOptions {
  /** The PostgreSQL database of the log and the read models; the thread opens its own connections. */
  connectionString: string;
  kafka?: KafkaProjectorOptions['kafka'] | null;
  pollMs?: number;
  /** Told of each failed batch (retried) and, should it happen, of the thread's own end. */
  onError?: (error: unknown) => void;
}

/**
 * The projector (startProjector, with every projection) in a worker thread of its own, for a
 * portal on PostgreSQL: the requests and the projector no longer take turns on one event loop, so
 * under load a scan reaches the read models without waiting behind the requests queued before it
 * (README, Performance). It uses the data keys this process uses. Resolves once it follows the
 * log, or rejects with the reason it could not start (a rebuild included, when one is due).
 * Should the thread ever end on its own, `state()` says it is not running (health answers 503).
 */
export async function startProjectorThread(options: ProjectorThreadOptions): Promise<Projector> {
  const start: ThreadStart = {
    entry: new URL('./worker.ts', import.meta.url).href,
    connectionString: options.connectionString,
    kafka: options.kafka ?? null,
    dataKeys: dataKeysInUse(),
    pollMs: options.pollMs,
  };
  const worker = new Worker(new URL('./boot.mjs', import.meta.url), { workerData: start });
  let state: { running: boolean; lastError: string | null } = { running: false, lastError: null };
  let member: unknown = null;
  let stopping = false;
  let running = false;
  /** Why the thread ended, once it has. */
  let gone: string | null = null;
  let nextId = 0;
  const asked = new Map<number, { resolve(health: ProjectorHealth): void; reject(error: Error): void }>();
  const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let confirmStopped = () => {};
  const stopped = new Promise<void>((resolve) => (confirmStopped = resolve));

  const started = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromThread) => {
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
    // An exception the thread did not catch: it ends after this ('exit' below says so).
    worker.on('error', (error) => {
      reject(error);
      if (running && !stopping) options.onError?.(error);
    });
    worker.once('exit', (code) => {
      gone = `the projector's thread ended (exit code ${code})`;
      state = { running: false, lastError: stopping ? null : gone };
      // Once it followed the log, an end not asked for is loud (before that, starting fails).
      if (running && !stopping) options.onError?.(new Error(gone));
      for (const waiting of asked.values()) waiting.reject(new Error(gone));
      asked.clear();
      reject(new Error(gone));
    });
  });
  await started.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });

  return {
    state: () => ({ ...state }),
    health: () =>
      new Promise<ProjectorHealth>((resolve, reject) => {
        if (gone) return reject(new Error(gone));
        const id = nextId++;
        asked.set(id, { resolve, reject });
        worker.postMessage({ kind: 'health', id } satisfies ToThread);
      }),
    ...(options.kafka ? { member: () => member as ReturnType<NonNullable<Projector['member']>> } : {}),
    async stop() {
      if (stopping) return ended;
      stopping = true;
      worker.postMessage({ kind: 'stop' } satisfies ToThread);
      // Its batch in flight committed and its connections closed; a thread that does not answer is ended.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
      await Promise.race([stopped, ended, late]);
      clearTimeout(timer);
      await worker.terminate();
    },
  };
}
