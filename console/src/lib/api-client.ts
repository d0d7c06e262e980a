import i18n from './i18n.ts';
import { storedToken } from './storage.ts';

/** An answer the server gave with a 4xx or 5xx: its status and body (message, errors, ...). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; error?: string; status?: string; errors?: Record<string, string> },
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
async function send(path: string, init: { method?: string; body?: unknown }): Promise<Response> {
  const token = storedToken();
  const method = init.method ?? 'GET';
  const isForm = init.body instanceof FormData;
  try {
    return await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        'accept-language': i18n.language,
        ...(init.body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'GET' && lastWrite > 0 ? { 'x-min-position': String(lastWrite) } : {}),
      },
      body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
    });
  } catch (error) {
    throw new NetworkError(error);
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await send(path, init);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body);
  const position = (body as { position?: unknown }).position;
  if (typeof position === 'number' && position > lastWrite) lastWrite = position;
  return body as T;
}

/** A file the API answers (a CSV export), fetched like every other call. */
export async function apiFile(path: string): Promise<Blob> {
  const response = await send(path, {});
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
  return response.blob();
}
