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
 * Every call to the portal's API: JSON, the user's language (so messages come back in it), and the
 * session token both as the httpOnly cookie and as a Bearer header.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const token = storedToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        'accept-language': i18n.language,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    throw new NetworkError(error);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}
