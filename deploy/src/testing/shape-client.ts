import { randomUUID } from 'node:crypto';
import https from 'node:https';
import type { CallAnswer } from './portal-calls.ts';

/** An attempt that failed and was sent again: when, what, and why. */
export interface FailedAttempt {
  at: number;
  method: string;
  url: string;
  reason: string;
}

/** Answers that say the instance or its database was not there, so the call can be sent again. */
const RETRYABLE = new Set([502, 503, 504]);
const ATTEMPTS = 30;
const PAUSE_MS = 200;

/**
 * Calls to a running production shape over HTTPS (its certificate checked against `ca`), sent
 * again as the console sends them (console/src/lib/api-client.ts): a query whenever no instance
 * answered, a command with the same idempotency key, so a command that did reach the log before
 * its instance died counts once. Every failed attempt is kept, for the test to hold against the
 * moments it killed something.
 */
export function shapeClient(baseUrl: string, ca: string) {
  const agent = new https.Agent({ keepAlive: true, ca, maxSockets: 64 });
  const failed: FailedAttempt[] = [];

  const once = (method: string, url: string, headers: Record<string, string>, body?: string | Buffer) =>
    new Promise<CallAnswer>((resolve, reject) => {
      const request = https.request(new URL(url, baseUrl), { method, agent, headers, timeout: 20_000 }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            statusCode: response.statusCode ?? 0,
            body: text,
            headers: response.headers,
            json: () => JSON.parse(text),
          });
        });
      });
      request.on('error', reject);
      request.on('timeout', () => request.destroy(new Error('no answer in 20 s')));
      request.end(body);
    });

  async function inject(call: {
    method: string;
    url: string;
    payload?: object;
    headers?: Record<string, string>;
  }): Promise<CallAnswer> {
    const headers: Record<string, string> = { ...call.headers };
    // A Buffer is sent as it is (a multipart form, with its own content-type); anything else as JSON.
    const raw = Buffer.isBuffer(call.payload);
    if (call.payload !== undefined && !raw) headers['content-type'] = 'application/json';
    if (call.method !== 'GET' && call.method !== 'HEAD') headers['idempotency-key'] ??= randomUUID();
    const body = call.payload === undefined ? undefined : raw ? (call.payload as Buffer) : JSON.stringify(call.payload);
    for (let attempt = 1; ; attempt++) {
      let reason: string;
      try {
        const answer = await once(call.method, call.url, headers, body);
        if (!RETRYABLE.has(answer.statusCode)) return answer;
        reason = `${answer.statusCode} ${answer.body.slice(0, 120)}`;
        if (attempt === ATTEMPTS) return answer;
      } catch (error) {
        reason = (error as Error).message;
        if (attempt === ATTEMPTS) throw error;
      }
      failed.push({ at: Date.now(), method: call.method, url: call.url, reason });
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  }

  return { inject, failed, close: () => agent.destroy() };
}
