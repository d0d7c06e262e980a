import { Worker } from 'node:worker_threads';
import { bundledEntry } from './bundle.ts';

/**
 * A worker thread running the TypeScript module `entry` (a file URL), given `data` as its
 * workerData (structured-cloned, with `entry` beside it): its bundled module when the portal runs
 * from its bundle, else the module through tsx (boot.mjs).
 */
export function startTypeScriptWorker<Data extends object>(entry: URL, data: Data): Worker {
  const bundled = bundledEntry(entry);
  if (bundled) return new Worker(bundled, { workerData: { ...data, entry: entry.href } });
  return new Worker(new URL('./boot.mjs', import.meta.url), { workerData: { ...data, entry: entry.href } });
}

/** An error as it crosses between threads: its name, message, stack and plain fields (a SQLSTATE `code`). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  fields?: Record<string, string | number | boolean>;
}

export function threadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value as string | number | boolean;
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

export const fromThreadError = (error: ThreadError): Error =>
  Object.assign(new Error(error.message), error.fields ?? {}, { name: error.name, stack: error.stack });
