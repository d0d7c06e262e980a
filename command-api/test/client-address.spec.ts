import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxyFromEnv } from '@portal/platform/http/service-config';
import { pgliteDatabase } from '@portal/platform/testing/databases';
import { type Harness, startCommandApi } from './harness.ts';

/**
 * Sign-in limits key on the real client. Found: once an address got 429, the same request with a
 * made-up `X-Forwarded-For` was evaluated again, so a password spray was unlimited. Proxies are
 * now trusted only when configured (TRUST_PROXY), and then only as far as configured.
 */
describe('the client address behind proxies', () => {
  const spray = async (h: Harness, headers: Record<string, string>, count: number) => {
    const codes: number[] = [];
    for (let n = 0; n < count; n++) {
      const answer = await h.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '198.51.100.7',
        headers,
        payload: { username: `sprayed${String(n).padStart(3, '0')}`, password: 'wrong-password-1' },
      });
      codes.push(answer.statusCode);
    }
    return codes;
  };

  describe('with no proxy configured (the default)', () => {
    let h: Harness & { close(): Promise<void> };
    beforeAll(async () => {
      h = await startCommandApi(pgliteDatabase);
    });
    afterAll(() => h.close());

    it('ignores X-Forwarded-For: a spoofed address does not get a fresh allowance', async () => {
      const codes = await spray(h, {}, 21);
      expect(codes.slice(0, 20).every((code) => code === 401)).toBe(true);
      expect(codes[20]).toBe(429);
      const spoofed = await spray(h, { 'x-forwarded-for': '203.0.113.9' }, 3);
      expect(spoofed).toEqual([429, 429, 429]);
    });
  });

  describe('behind one trusted proxy (TRUST_PROXY=1)', () => {
    let h: Harness & { close(): Promise<void> };
    beforeAll(async () => {
      h = await startCommandApi(pgliteDatabase, undefined, { trustProxy: 1 });
    });
    afterAll(() => h.close());

    it('keys on the address the proxy saw, and not on what the client wrote before it', async () => {
      // The proxy appends the real client; anything before it is the client's own claim.
      const codes = await spray(h, { 'x-forwarded-for': '203.0.113.1, 192.0.2.50' }, 21);
      expect(codes[20]).toBe(429);
      expect(await spray(h, { 'x-forwarded-for': '203.0.113.2, 192.0.2.50' }, 1)).toEqual([429]);
      expect(await spray(h, { 'x-forwarded-for': '192.0.2.51' }, 1)).toEqual([401]);
    });
  });

  it('reads TRUST_PROXY as nothing, a hop count or addresses, and refuses to trust everyone', () => {
    expect(trustProxyFromEnv({})).toBe(false);
    expect(trustProxyFromEnv({ TRUST_PROXY: '' })).toBe(false);
    expect(trustProxyFromEnv({ TRUST_PROXY: '1' })).toBe(1);
    expect(trustProxyFromEnv({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' })).toBe('127.0.0.1,10.0.0.0/8');
    expect(() => trustProxyFromEnv({ TRUST_PROXY: 'true' })).toThrow(/hop count or addresses/);
  });
});
