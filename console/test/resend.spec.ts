import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESEND_AFTER_MS, newIdempotencyKey, sendUntilAnswered } from '../src/lib/resend.ts';

/**
 * The console sends a call again when no instance of the portal answered (nginx's 502/503/504,
 * or no connection), a command with the key it was first sent with; against a real HTTP server
 * that fails as a dying instance behind nginx does.
 */
describe('sending again when no instance answered', () => {
  const seen: { key: string | undefined }[] = [];
  let failures: number[] = [];
  let url = '';
  const server = createServer((request, response) => {
    seen.push({ key: request.headers['idempotency-key'] as string | undefined });
    response.statusCode = failures.shift() ?? 201;
    response.end('{}');
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/members/register`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const fast = [1, 1, 1];
  const command = (key: string) => () => fetch(url, { method: 'POST', headers: { 'idempotency-key': key } });

  it('repeats a command after 502 and 503 with the same key until it is answered', async () => {
    seen.length = 0;
    failures = [502, 503];
    const key = newIdempotencyKey();
    const answer = await sendUntilAnswered(command(key), fast);
    expect(answer.status).toBe(201);
    expect(seen).toEqual([{ key }, { key }, { key }]);
  });

  it('gives the last answer after the last pause, and never repeats an answer an instance gave', async () => {
    seen.length = 0;
    failures = [504, 504, 504, 504, 504];
    expect((await sendUntilAnswered(command('k1'), fast)).status).toBe(504);
    expect(seen).toHaveLength(4);
    for (const status of [500, 409, 400]) {
      seen.length = 0;
      failures = [status];
      expect((await sendUntilAnswered(command('k2'), fast)).status).toBe(status);
      expect(seen).toHaveLength(1);
    }
  });

  it('repeats when nothing answers at all, and fails with that when nothing ever does', async () => {
    let tries = 0;
    const nowhere = () => {
      tries++;
      return fetch('http://127.0.0.1:1/api/health');
    };
    await expect(sendUntilAnswered(nowhere, fast)).rejects.toThrow();
    expect(tries).toBe(4);
    expect(RESEND_AFTER_MS.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(5000);
  });

  it('makes a fresh key of 32 hex digits each time, without a secure context', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
  });
});
