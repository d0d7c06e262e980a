import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from '@portal/platform/testing/multipart';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { caughtUp } from '../src/testing/read-side.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;

interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  json: boolean;
  query: string[];
}

/** Ids that are not ids: empty-ish, a NUL, an emoji, a path climb, 3,000 characters, a number too big. */
const BAD_IDS = ['x', '%00', '%F0%9F%98%80', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(3000), '1e999', '-1', 'NaN'];
/** Query values no list expects. */
const BAD_QUERY = ['%00', '1e999', 'NaN', '-1', '99999999999999999999999', '%5B%5D', '%uD800', 'a'.repeat(3000)];
/** Bodies as a broken or hostile client sends them: [content type, payload]. */
const BAD_BODIES: [string | undefined, string | Buffer][] = [
  ['application/json', '{"a":'],
  ['application/json', '[]'],
  ['application/json', 'null'],
  ['application/json', '"just a string"'],
  ['application/json', '{"n": 1e999, "m": -1e999}'],
  ['application/json', '{"n": NaN}'],
  ['application/json', '{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}'],
  ['application/json', JSON.stringify({ a: [[[[[[[[[[[]]]]]]]]]]] })],
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=1&b=2'],
  ['multipart/form-data', 'no boundary here'],
  ['multipart/form-data; boundary=zzz', '--zzz\r\nContent-Disposition: form-data; name="x"\r\n\r\ncut off'],
  [undefined, 'a body without a type'],
];

/**
 * Every route of the OpenAPI document, as a broken or hostile client would call it: bad ids, bad
 * query values, bad JSON, wrong content types, multipart without a boundary or cut off, numbers
 * too big, prototype pollution, as an admin and as nobody. Nothing may answer 5xx, and the read
 * side must still be running and caught up at the end.
 */
describe.each(testDatabases())('malformed requests on every route, on $name', (database) => {
  let portal: TestPortal;
  let operations: Operation[];
  const ids: Record<string, string> = {};
  const { approvedMember, courseWithRounds } = portalCalls(() => portal);
  beforeAll(async () => {
    portal = await openTestPortal(database);
    const doc = (await portal.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    operations = Object.entries<Record<string, { requestBody?: unknown; parameters?: { in: string; name: string }[] }>>(
      doc.paths,
    ).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, op]) => ({
        method: method.toUpperCase() as Operation['method'],
        path,
        json: Boolean(op.requestBody),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
    );
    // Real ids, so a request with a bad body reaches the route's own checks.
    const member = await approvedMember('Malformed Target');
    ids.memberId = member.id;
    const course = await courseWithRounds(portal.adminToken, [[-hour, hour]], 'Target');
    [ids.id, ids.courseId, ids.roundId] = [course.id, course.id, course.rounds[0]!];
  });
  afterAll(() => portal.close());

  // Server-sent event streams never end by design; their parameters are checked like any other.
  const walked = () => operations.filter((op) => !op.path.startsWith('/api/live/'));
  const fill = (path: string, value?: string) =>
    path.replace(/\{(\w+)\}/g, (_match: string, name: string) => value ?? ids[name] ?? 'x');

  async function expectNo5xx(label: string, request: InjectOptions) {
    const answer = await portal.app.inject(request);
    expect(answer.statusCode, `${label}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
    return answer;
  }

  it('finds every route in the OpenAPI document', () => {
    expect(walked().length).toBeGreaterThan(45);
  });

  it('answers bad ids in every path with a 4xx', async () => {
    for (const op of walked().filter((candidate) => candidate.path.includes('{'))) {
      for (const bad of BAD_IDS) {
        for (const token of [portal.adminToken, '']) {
          await expectNo5xx(`${op.method} ${op.path} id=${bad.slice(0, 20)}`, {
            method: op.method,
            url: fill(op.path, bad),
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(op.json ? { payload: {} } : {}),
          });
        }
      }
    }
  });

  it('answers bad query values on every list with a 4xx', async () => {
    for (const op of walked().filter((candidate) => candidate.query.length > 0)) {
      for (const name of op.query) {
        for (const bad of BAD_QUERY) {
          await expectNo5xx(`${op.method} ${op.path}?${name}=${bad.slice(0, 20)}`, {
            method: op.method,
            url: `${fill(op.path)}?${name}=${bad}`,
            headers: { authorization: `Bearer ${portal.adminToken}` },
          });
        }
      }
      await expectNo5xx(`${op.method} ${op.path} repeated`, {
        method: op.method,
        url: `${fill(op.path)}?${op.query[0]}=1&${op.query[0]}=2`,
        headers: { authorization: `Bearer ${portal.adminToken}` },
      });
    }
  });

  it('answers broken bodies on every command with a 4xx', async () => {
    const commands = walked().filter((op) => op.method !== 'GET');
    for (const op of commands) {
      for (const [type, payload] of BAD_BODIES) {
        for (const token of [portal.adminToken, '']) {
          await expectNo5xx(`${op.method} ${op.path} ${type} ${String(payload).slice(0, 30)}`, {
            method: op.method,
            url: fill(op.path),
            headers: {
              ...(type ? { 'content-type': type } : {}),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            payload,
          });
        }
      }
      // Every field of the route's body given the wrong kind of value.
      const wrongKinds = [1e308, -0, true, [], {}, null, 'x'.repeat(10_000)];
      for (const value of wrongKinds) {
        const body = Object.fromEntries(
          [
            'username',
            'password',
            'courseTopic',
            'courseDescription',
            'maxPeople',
            'status',
            'userId',
            'deviceId',
            'deviceTime',
            'roundStartTime',
            'roundEndTime',
            'reason',
            'name',
            'email',
            'message',
            'ids',
            'to',
            'subject',
            'fullName',
            'personalId',
            'acceptTerms',
            'shopLatitude',
            'profile_img',
            'newPassword',
          ].map((field) => [field, value]),
        );
        await expectNo5xx(`${op.method} ${op.path} every field ${JSON.stringify(value).slice(0, 20)}`, {
          method: op.method,
          url: fill(op.path),
          headers: { authorization: `Bearer ${portal.adminToken}` },
          payload: body,
        });
      }
    }
    // The uploads with a file under the wrong field, and with a file that is not an image.
    for (const [method, url, field] of [
      ['POST', `/api/members/uploadprofile/${ids.memberId}`, 'profileImage'],
      ['PUT', `/api/admin/courses/${ids.id}/uploadImage`, 'courseImage'],
    ] as const) {
      for (const [name, content] of [
        ['wrong', Buffer.from('hello')],
        [field, Buffer.from('%PDF-1.4 not an image')],
      ] as const) {
        const body = await multipartBody(name, content, 'a.png', 'image/png');
        await expectNo5xx(`${method} ${url} ${name}`, {
          method,
          url,
          headers: { ...body.headers, authorization: `Bearer ${portal.adminToken}` },
          payload: body.payload,
        });
      }
    }
    expect(await caughtUp(portal)).toMatchObject({ running: true, behind: 0, failing: [] });
  });
});
