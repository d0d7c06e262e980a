import type { DataKeys } from '@portal/platform/privacy/data-key';
import type { ProjectorHealth } from '../projector.ts';
import type { KafkaProjectorOptions } from '../kafka/kafka-projector.ts';

/** The application_name of the projector thread's connections. */
export const PROJECTOR_THREAD_APPLICATION = 'portal-projector-thread';

/** What the projector thread is started with (structured-cloned into it). */
export interface ThreadStart {
  entry: string;
  connectionString: string;
  kafka: KafkaProjectorOptions['kafka'] | null;
  dataKeys: DataKeys;
  pollMs?: number;
}

/** An error as it crosses between threads. */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
}

export type ToThread = { kind: 'health'; id: number } | { kind: 'stop' };

export type FromThread =
  | { kind: 'started' }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'error'; error: ThreadError }
  | { kind: 'state'; running: boolean; lastError: string | null; member: unknown }
  | { kind: 'health'; id: number; health: ProjectorHealth | null; error?: ThreadError }
  | { kind: 'stopped' };

export const threadError = (error: unknown): ThreadError =>
  error instanceof Error
    ? { name: error.name, message: error.message, stack: error.stack }
    : { name: 'Error', message: String(error) };

export const fromThreadError = (error: ThreadError): Error =>
  Object.assign(new Error(error.message), { name: error.name, stack: error.stack });
