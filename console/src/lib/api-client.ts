import i18n from './i18n.ts';
import { newIdempotencyKey, sendUntilAnswered } from './resend.ts';
import { storedToken } from './storage.ts';

/** An answer the server gave with a 4xx or 5xx: its status and body (message, errors, ...). */
/** An answer that arrived but is not the shape the screen was promised (the contract's schema). */
export class MalformedAnswer extends Error {
  constructor(readonly path: string) {
    super(`The answer of ${path} does not have the expected structure.`);
    this.name = 'MalformedAnswer';
  }
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      message?: string;
      error?: string;
      status?: string;
      errors?: Record<string, string>;
      [more: string]: unknown;
    },
  ) {
    super(body.message ?? body.error ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** No answer at all: the server is down or unreachable. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
    this.name = 'NetworkError';
  }
}

/**
 * Read-your-writes: the position of the last event this browser's commands appended. Queries
 * send it, and the query API waits until its read models include it, so a list never lacks what
 * the user just did.
 */
let lastWrite = 0;

/**
 * Every call to the portal's API: JSON (or a multipart form), the user's language (so messages
 * come back in it), and the session token both as the httpOnly cookie and as a Bearer header.
 */
interface Init {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** One attempt only: the caller has its own way to send again (the scanner's offline queue). */
  once?: boolean;
}

async function sendOnce(path: string, init: Init): Promise<Response> {
  const token = storedToken();
  const method = init.method ?? 'GET';
  const isForm = init.body instanceof FormData;
  // Sent again when no instance answered (./resend.ts); a command with the key it was first sent with.
  const key: Record<string, string> = method === 'GET' ? {} : { 'idempotency-key': newIdempotencyKey() };
  try {
    const attempt = () =>
      fetch(path, {
        method,
        credentials: 'same-origin',
        headers: {
          'accept-language': i18n.language,
          ...(init.body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(method === 'GET' && lastWrite > 0 ? { 'x-min-position': String(lastWrite) } : {}),
          ...key,
          ...init.headers,
        },
        body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
      });
    return await (init.once ? attempt() : sendUntilAnswered(attempt));
  } catch (error) {
    throw new NetworkError(error);
  }
}

/**
 * The server ended this browser's session (idle or absolute lifetime, a password change or a
 * logout elsewhere): whoever listens (the session provider) signs the browser out too.
 */
const sessionEndedListeners = new Set<() => void>();
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

async function send(path: string, init: Init): Promise<Response> {
  const hadSession = storedToken() !== null;
  const response = await sendOnce(path, init);
  if (response.status === 401 && hadSession) for (const listener of sessionEndedListeners) listener();
  return response;
}

export async function api<T>(path: string, init: Init = {}): Promise<T> {
  const response = await send(path, init);
  const body = await response.json().catch(() => ({}));
  // A refused scan is recorded too: its position matters as much as an accepted one's.
  notePosition((body as { position?: unknown }).position);
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}

/** Queries from now on wait until the read models include this position (a write, or a live change). */
export function notePosition(position: unknown): void {
  if (typeof position === 'number' && position > lastWrite) lastWrite = position;
}

/** A file the API answers (a CSV export), fetched like every other call. */
export async function apiFile(path: string): Promise<Blob> {
  const response = await send(path, {});
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  return response.blob();
}
