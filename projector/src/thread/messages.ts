import type { DataKeys } from '@portal/platform/privacy/data-key';
import type { ThreadError } from '@portal/platform/threads/typescript-worker';
import type { ProjectorHealth } from '../projector.ts';
import type { KafkaProjectorOptions } from '../kafka/kafka-projector.ts';

/** The application_name of the projector thread's connections. */
export const PROJECTOR_THREAD_APPLICATION = 'portal-projector-thread';

/** What the projector thread is started with (structured-cloned into it). */
export interface ThreadStart {
  /** PostgreSQL; null beside the embedded database, which the thread is given. */
  connectionString: string | null;
  kafka: KafkaProjectorOptions['kafka'] | null;
  dataKeys: DataKeys;
  pollMs?: number;
}

export type ToThread = { kind: 'health'; id: number } | { kind: 'stop' };

export type FromThread =
  | { kind: 'started' }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'error'; error: ThreadError }
  | { kind: 'state'; running: boolean; lastError: string | null; member: unknown }
  | { kind: 'health'; id: number; health: ProjectorHealth | null; error?: ThreadError }
  | { kind: 'stopped' };
