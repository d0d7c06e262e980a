import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase } from '@portal/platform/testing/databases';
import { TEST_ADMIN, type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * Security headers on every answer (issue 17): found, none on the console, the APIs or the docs,
 * and the console could be framed by any page. The console's own pages are checked in Chromium
 * (every browser test fails on a Content-Security-Policy violation).
 */
describe('security headers', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(pgliteDatabase);
  });
  afterAll(() => portal.close());

  it.each([
    ['an API answer', 'GET', '/api/health'],
    ['a refusal', 'GET', '/api/admin/registration'],
    ['a command', 'POST', '/api/login'],
    ['the API documentation', 'GET', '/api/docs'],
    ['an upload', 'GET', '/uploads/profiles/nothing.webp'],
    ['a page not found', 'GET', '/no/such/thing'],
  ] as const)('are on %s', async (_what, method, url) => {
    const answer = await portal.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('same-origin');
    expect(answer.headers['permissions-policy']).toContain('camera=(self)');
    expect(answer.headers['permissions-policy']).toContain('microphone=()');
    expect(answer.headers['permissions-policy']).toContain('geolocation=(self)');
    // Plain HTTP here: HSTS only when served over HTTPS (COOKIE_SECURE=true behind a TLS proxy).
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('sets the session cookie HttpOnly, SameSite=Lax and for the whole portal', async () => {
    const answer = await portal.app.inject({ method: 'POST', url: '/api/login', payload: TEST_ADMIN });
    const cookie = answer.cookies.find((c) => c.name === 'token')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
  });
});

describe('behind a TLS proxy (COOKIE_SECURE=true)', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(pgliteDatabase, { secureCookie: true });
  });
  afterAll(() => portal.close());

  it('sends HSTS and marks the session cookie Secure', async () => {
    const answer = await portal.app.inject({ method: 'POST', url: '/api/login', payload: TEST_ADMIN });
    expect(answer.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect(answer.cookies.find((c) => c.name === 'token')).toMatchObject({ secure: true, httpOnly: true });
  });
});
