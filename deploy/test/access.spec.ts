import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountRoutes } from '@portal/platform/http/access';
import { installErrorHandler } from '@portal/platform/http/errors';
import { sessions } from '@portal/platform/http/session';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * What a stranger may call: the sign-in and registration forms, the contact form, the address
 * pickers, a calendar feed (its secret address is the permission: anything else is a 404),
 * setting a password from an e-mailed link (its token is the permission), and a certificate's
 * verification page (its 128-bit number, printed on the paper, is the permission).
 */
const PUBLIC = [
  'POST /api/login',
  'POST /api/logout',
  'POST /api/members/register',
  'POST /api/partners/register',
  'POST /api/contact',
  'GET /api/address/provinces',
  'GET /api/address/districts',
  'GET /api/address/subdistricts',
  'GET /api/health',
  'GET /api/calendar/{file}',
  'POST /api/password/set',
  'GET /api/certificates/{certificateId}/verification',
  'GET /api/clock',
];

/**
 * Safe by default (issue 19): every route of both APIs needs a session unless it sits in the one
 * public scope, and a route that declares no role is open to any signed-in person, never to a
 * stranger. Every route the portal documents is called as a stranger.
 */
describe.each(testDatabases())('who may call what, on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { approvedMember } = portalCalls(() => portal);

  it('answers 401 to a stranger on every route but the public ones', async () => {
    const spec = portal.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const open: string[] = [];
    let called = 0;
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const method of Object.keys(methods).map((m) => m.toUpperCase())) {
        if (method === 'HEAD') continue;
        const url = path.replace(/\{[^}]+\}/g, '0123456789abcdef01234567');
        const answer = await portal.app.inject({
          method: method as 'GET',
          url,
          payload: method === 'GET' ? undefined : {},
        });
        called++;
        if (answer.statusCode !== 401) open.push(`${method} ${path}`);
      }
    }
    expect(called).toBeGreaterThan(50);
    expect(open.filter((route) => !PUBLIC.includes(route))).toEqual([]);
  });

  it('refuses a member on staff routes with 403 before reading the body', async () => {
    const member = await approvedMember('Access Member');
    const answer = await portal.app.inject({
      method: 'PUT',
      url: '/api/admin/registration/0123456789abcdef01234567/status',
      headers: {
        authorization: `Bearer ${member.token}`,
        'content-type': 'application/json',
        'accept-language': 'en',
      },
      payload: '{not json',
    });
    expect(answer.statusCode).toBe(403);
    // Signed in already: told their role may not, not to "log in with an administrator account".
    expect(answer.json().message).toBe('Your account’s role does not allow this.');
  });
});

describe('mounting routes', () => {
  const app = async (mount: (app: ReturnType<typeof Fastify>) => Promise<void>) => {
    const built = Fastify();
    installErrorHandler(built);
    await built.register(sessions, { secret: 'a-test-secret-of-enough-length-for-jwt' });
    await built.register(mount);
    return built;
  };

  it('opens a route that declares no role to signed-in people only, and a role narrows it', async () => {
    const built = await app((api) =>
      mountRoutes(api, {
        publicRoutes: async (scope) => void scope.get('/open', async () => ({ ok: true })),
        signedInRoutes: async (scope) => {
          scope.get('/forgot-its-role', async () => ({ secret: true }));
          scope.get('/admins', { config: { roles: ['admin'] } }, async () => ({ secret: true }));
        },
      }),
    );
    await built.ready();
    const token = (role: string) => built.jwt.sign({ sub: 'a', role, username: 'u', iatMs: Date.now() });
    const get = (url: string, role?: string) =>
      built.inject({ url, headers: role ? { authorization: `Bearer ${token(role)}` } : {} });
    expect((await get('/open')).statusCode).toBe(200);
    expect((await get('/forgot-its-role')).statusCode).toBe(401);
    expect((await get('/forgot-its-role', 'member')).statusCode).toBe(200);
    expect((await get('/admins', 'partner')).statusCode).toBe(403);
    expect((await get('/admins', 'admin')).statusCode).toBe(200);
    await built.close();
  });

  it('refuses to start with a route outside both scopes', async () => {
    const starting = app(async (api) => {
      await mountRoutes(api, { publicRoutes: async () => {}, signedInRoutes: async () => {} });
      api.get('/stray', async () => ({ secret: true }));
    });
    await expect(starting).rejects.toThrow(/GET \/stray is outside the public and signed-in scopes/);
  });
});
