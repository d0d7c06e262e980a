import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '@portal/platform/http/server-kit';
import { unlockReadModels } from '@portal/platform/read-models/sealed-columns';
import { createEventStore } from '@portal/platform/store/event-store';
import { connectPostgres } from '@portal/platform/store/postgres';
import type { EventStore } from '@portal/platform/store/port';
import type { SqlDatabase } from '@portal/platform/store/sql';
import { sampleMember } from '@portal/platform/testing/accounts';
import { multipartBody } from '@portal/platform/testing/multipart';
import { buildFromLog, readModelDifferences, readModelSizes } from '@portal/projector/testing/read-model-copies';
import { seedActivity } from '../../src/testing/activity.ts';
import { type CallablePortal, portalCalls } from '../../src/testing/portal-calls.ts';
import {
  SHAPE_ADMIN,
  SHAPE_SESSION_SECRET,
  type Shape,
  shapeSkipReason,
  startShape,
} from '../../src/testing/production-shape.ts';
import { shapeClient } from '../../src/testing/shape-client.ts';

const skip = shapeSkipReason();
if (skip) {
  if (process.env.CI) throw new Error(`${skip}: CI must run the production shape test.`);
  console.warn(`\n!!! ${skip}: the production shape test is SKIPPED.\n`);
}
/** A valid PNG of one pixel. */
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The production shape as deploy/scripts/production.sh starts it (nginx with TLS, two command-api
 * and two query-api processes, the relay and two projectors on Kafka, the machine's PostgreSQL and
 * a streaming replica of it), used through nginx over HTTPS as the console uses it.
 */
describe.skipIf(skip !== null)('the production shape', () => {
  let shape: Shape;
  let client: ReturnType<typeof shapeClient>;
  let portal: CallablePortal;
  let primary: SqlDatabase;
  let store: EventStore;
  let replica: SqlDatabase;

  beforeAll(async () => {
    shape = await startShape();
    client = shapeClient(shape.url, shape.ca);
    primary = connectPostgres({ connectionString: shape.primaryUrl });
    replica = connectPostgres({ connectionString: shape.primaryUrl.replace(/:\d+\//, ':15433/') });
    await unlockReadModels(primary);
    store = createEventStore(primary);
    // Sessions signed as the shape signs them (its SESSION_SECRET), for the partner the helpers use.
    const signer = await createHttpServer({ title: 'signer', sessionSecret: SHAPE_SESSION_SECRET });
    await signer.ready();
    const signIn = await client.inject({ method: 'POST', url: '/api/login', payload: SHAPE_ADMIN });
    expect(signIn.statusCode).toBe(200);
    portal = {
      app: { inject: client.inject, jwt: { sign: (payload) => signer.jwt.sign(payload) } },
      adminToken: signIn.json().partner.token,
      store,
    };
  }, 300_000);
  afterAll(async () => {
    client?.close();
    await replica?.close();
    await primary?.close();
    await shape?.down();
  }, 120_000);

  const health = async () => (await client.inject({ method: 'GET', url: '/api/health' })).json();
  const waitFor = async (what: string, condition: () => Promise<boolean>, timeoutMs = 60_000) => {
    for (const deadline = Date.now() + timeoutMs; !(await condition()); await sleep(200)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}: ${JSON.stringify(await health())}`);
    }
  };

  it('serves the console and both APIs through nginx over TLS, GET to query-api and the rest to command-api', async () => {
    const page = await client.inject({ method: 'GET', url: '/courses' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['strict-transport-security']).toBeDefined();
    // A GET reaches query-api; query-api has no command routes, so a command answered reached command-api.
    expect(await health()).toMatchObject({ service: 'query-api', status: 'ok' });
    const registered = await client.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() });
    expect(registered.statusCode).toBe(201);
    // Plain HTTP only points at HTTPS.
    const plain = await fetch(`${shape.httpUrl}/admin`, { redirect: 'manual' });
    expect(plain.status).toBe(308);
    expect(plain.headers.get('location')).toBe('https://127.0.0.1:18443/admin');
    // Every part says it is running and healthy.
    const status = await shape.shape('status');
    for (const part of ['command-api-1', 'command-api-2', 'query-api-1', 'query-api-2', 'projector-1', 'projector-2']) {
      expect(status).toMatch(new RegExp(`${part}\\s+running\\s+200`));
    }
    expect(status).toMatch(/replica\s+running/);
    expect(status).toMatch(/nginx\s+running\s+200/);
  });

  it('runs every service from the bundle of its code, not its TypeScript through tsx', () => {
    const cache = join(import.meta.dirname, '../../../node_modules/.cache/portal-server');
    const { dir } = JSON.parse(readFileSync(join(cache, 'current.json'), 'utf8')) as { dir: string };
    const services = ['command-api-1', 'command-api-2', 'query-api-1', 'query-api-2', 'projector-1', 'projector-2'];
    for (const service of [...services, 'relay']) {
      const pid = shape.pidOf(service);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(command.slice(1, 3), service).toEqual([
        'deploy/scripts/service.mjs',
        expect.stringMatching(/server\.ts$/),
      ]);
      expect(command.join(' '), service).not.toContain('tsx');
      expect(existsSync(join(cache, dir, 'in-use', String(pid))), `${service} marked as running from ${dir}`).toBe(
        true,
      );
    }
  });

  it('serves a calendar feed through nginx, and no log holds its secret address', async () => {
    const issued = await client.inject({
      method: 'POST',
      url: '/api/calendar/feed',
      headers: { authorization: `Bearer ${portal.adminToken}` },
    });
    expect(issued.statusCode).toBe(200);
    const link = await client.inject({
      method: 'GET',
      url: '/api/calendar',
      headers: { authorization: `Bearer ${portal.adminToken}`, 'x-min-position': String(issued.json().position) },
    });
    const path = link.json().path as string;
    const feed = await client.inject({ method: 'GET', url: `${path}?lang=th` });
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toMatch(/^BEGIN:VCALENDAR/);
    const token = path.slice('/api/calendar/'.length, -'.ics'.length);
    const logs = ['nginx-access', 'query-api-1', 'query-api-2'].map((name) => shape.log(name)).join('\n');
    expect(logs).toContain('/api/calendar/[feed]?lang=th');
    expect(logs).not.toContain(token.split('.')[1]);
  });

  it('takes an upload through nginx on command-api, and serves it from query-api', async () => {
    const { call } = portalCalls(() => portal);
    const course = await call('POST', '/api/admin/createcourse', portal.adminToken, {
      courseTopic: 'With a picture',
      courseDescription: 'Uploaded through nginx',
      maxPeople: 0,
      status: 'public',
    });
    const form = await multipartBody('courseImage', Buffer.from(ONE_PIXEL_PNG, 'base64'), 'course.png', 'image/png');
    const uploaded = await client.inject({
      method: 'PUT',
      url: `/api/admin/courses/${course.json()._id}/uploadImage`,
      payload: form.payload,
      headers: { ...form.headers, authorization: `Bearer ${portal.adminToken}` },
    });
    expect(uploaded.statusCode).toBe(200);
    // Uploads are served to signed-in users only (the browser sends its cookie).
    const image = await client.inject({
      method: 'GET',
      url: uploaded.json().imageUrl,
      headers: { authorization: `Bearer ${portal.adminToken}` },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
  });

  it('has every service expose its metrics on its own address, and nginx none', async () => {
    expect((await client.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const metrics: Record<string, string> = {};
    for (const name of ['command-api-1', 'query-api-2', 'projector-1', 'relay']) {
      const answer = await fetch(`${shape.serviceUrl(name)}/metrics`);
      expect(answer.status).toBe(200);
      metrics[name] = await answer.text();
      expect(metrics[name]).toContain(`service="${name.replace(/-\d$/, '')}"`);
    }
    // production.sh's own health checks were counted, by route.
    expect(metrics['command-api-1']).toMatch(/portal_http_requests_total\{[^}]*route="\/api\/health"[^}]*\} [1-9]/);
    expect(metrics['query-api-2']).toMatch(/portal_db_pool_connections\{[^}]*pool="replica"/);
    expect(metrics['projector-1']).toMatch(/portal_kafka_projector_lag_events\{[^}]*projector="projector-1"/);
    expect(metrics['relay']).toMatch(/^portal_relay_lag_events\{service="relay"\} \d+$/m);
  });

  it('reads from the replica, and a query carrying a command’s position waits until the replica shows it', async () => {
    const { call } = portalCalls(() => portal);
    await shape.shape('replica-delay', '1500');
    try {
      // The replica applies changes 1.5 s late: without the position, a query does not see the write yet.
      const person = sampleMember();
      const first = await client.inject({ method: 'POST', url: '/api/members/register', payload: person });
      const { _id: id, position } = first.json() as { _id: string; position: number };
      const search = encodeURIComponent(person.username);
      const stale = await client.inject({
        method: 'GET',
        url: `/api/admin/registration?search=${search}`,
        headers: { authorization: `Bearer ${portal.adminToken}` },
      });
      expect(stale.statusCode).toBe(200);
      expect(JSON.stringify(stale.json())).not.toContain(id);
      // With it, the same query waits for the replica and shows it.
      const started = Date.now();
      const fresh = await client.inject({
        method: 'GET',
        url: `/api/admin/registration?search=${search}&minPosition=${position}`,
        headers: { authorization: `Bearer ${portal.adminToken}` },
      });
      expect(fresh.headers['x-read-position-reached']).toBe('true');
      expect(JSON.stringify(fresh.json())).toContain(id);
      expect(Date.now() - started).toBeGreaterThan(300);
      // The helpers' calls carry it too (as the console's do).
      const course = await call('POST', '/api/admin/createcourse', portal.adminToken, {
        courseTopic: 'Seen at once on a late replica',
        courseDescription: 'Read-your-writes',
        maxPeople: 0,
        status: 'public',
      });
      const shown = await call('GET', `/api/admin/courses/${course.json()._id}`, portal.adminToken);
      expect(shown.statusCode).toBe(200);
      expect(shown.headers['x-read-position-reached']).toBe('true');
    } finally {
      await shape.shape('replica-delay', '0');
    }
  });

  it('passes live updates through nginx as they happen', async () => {
    const { call, courseWithRounds } = portalCalls(() => portal);
    const course = await courseWithRounds(portal.adminToken, [[3600_000, 7200_000]], 'Followed live');
    const events: string[] = [];
    const stream = https.get(`${shape.url}/api/live/courses/${course.id}`, {
      ca: shape.ca,
      headers: { authorization: `Bearer ${portal.adminToken}`, accept: 'text/event-stream' },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        stream.on('response', (response) => {
          expect(response.headers['content-type']).toContain('text/event-stream');
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => events.push(chunk));
          resolve();
        });
        stream.on('error', reject);
      });
      await sleep(300);
      await call('POST', `/api/admin/courses/${course.id}/rounds`, portal.adminToken, {
        roundStartTime: new Date(Date.now() + 10_800_000).toISOString(),
        roundEndTime: new Date(Date.now() + 14_400_000).toISOString(),
      });
      await waitFor('the change arrived through nginx', async () => events.join('').includes('event: changed'), 5000);
    } finally {
      stream.destroy();
    }
  });

  it('stops an instance gracefully: requests in flight are answered, streams ended, gone within 10 s', async () => {
    const direct = shape.serviceUrl('query-api-1');
    const headers = { authorization: `Bearer ${portal.adminToken}` };
    // Requests held in the instance: each waits for a registration the late replica has not shown yet.
    await shape.shape('replica-delay', '1500');
    try {
      const { position } = (
        await client.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() })
      ).json() as { position: number };
      const inFlight = Array.from({ length: 20 }, () =>
        fetch(`${direct}/api/admin/registration?page=1&pageSize=10&minPosition=${position}`, { headers }).then(
          (response) => `${response.status} ${response.headers.get('x-read-position-reached')}`,
          (error: Error) => `failed: ${error.message}`,
        ),
      );
      const stream = fetch(`${direct}/api/live/notifications`, { headers }).then(
        (response) => response.text().then(() => 'ended'),
        (error: Error) => `failed: ${error.message}`,
      );
      await sleep(500);
      const pid = shape.pidOf('query-api-1');
      const stopping = Date.now();
      process.kill(pid, 'SIGTERM');
      // Each was answered in full, once the replica showed what it waited for.
      expect(await Promise.all(inFlight)).toEqual(Array(20).fill('200 true'));
      expect(await stream).toBe('ended');
      await waitFor('query-api-1 exited', async () => !isAlive(pid), 10_000);
      expect(Date.now() - stopping).toBeLessThan(10_000);
      console.info(`query-api-1 answered 20 held requests and exited ${Date.now() - stopping} ms after SIGTERM`);
    } finally {
      await shape.shape('replica-delay', '0');
    }
    // Meanwhile nginx sends everything to the other instance.
    expect((await health()).service).toBe('query-api');
    await shape.shape('start', 'query-api-1');
  });

  it('adds an instance when up is run again with one more port, nginx sending it requests', async () => {
    const more = shape.shapeWith({ COMMAND_PORTS: '18101 18102 18103' });
    await more('up');
    expect(await more('status')).toMatch(/command-api-3\s+running\s+200/);
    for (let n = 0; n < 12; n++) {
      const answer = await client.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() });
      expect(answer.statusCode).toBe(201);
    }
    // nginx took the new upstream without a restart: the third instance answered some of them.
    const metrics = await (await fetch('http://127.0.0.1:18103/metrics')).text();
    expect(metrics).toMatch(
      /portal_http_requests_total\{[^}]*method="POST",route="\/api\/members\/register",status="201"[^}]*\} [1-9]/,
    );
  });

  it('loses no acknowledged command and applies nothing twice while instances, a projector and the replica fail', async () => {
    const activity = await seedActivity(portal, { courses: 3, members: 4 });
    const { call, partner } = portalCalls(() => portal);
    const teacher = partner();
    let running = true;
    const registered: string[] = [];
    let scans = 0;
    let reports = 0;
    const registrations = async () => {
      while (running) {
        const answer = await client.inject({ method: 'POST', url: '/api/members/register', payload: sampleMember() });
        expect(answer.statusCode).toBe(201);
        registered.push(answer.json()._id);
      }
    };
    const pairs = activity.rounds.flatMap((round) => activity.members.map((member) => ({ ...round, member })));
    const scanner = async (offset: number) => {
      for (let n = offset; running; n += 2) {
        const { roundId, deviceTime, member } = pairs[n % pairs.length]!;
        const scan = await call('PUT', `/api/admin/updateround/${roundId}`, teacher, { userId: member.id, deviceTime });
        // Already scanned (the seeding scanned everyone once) is an answer too.
        expect([200, 409]).toContain(scan.statusCode);
        const undo = await call(
          'POST',
          `/api/admin/rounds/${roundId}/attendance/${member.id}/void`,
          portal.adminToken,
          {
            reason: 'steady stream',
          },
        );
        expect(undo.statusCode).toBeLessThan(500);
        scans++;
      }
    };
    const reader = async () => {
      while (running) {
        const answer = await call('GET', '/api/admin/registration?page=1&pageSize=20', portal.adminToken);
        expect(answer.statusCode).toBe(200);
        reports++;
      }
    };
    const load = [registrations(), registrations(), scanner(0), scanner(1), reader()];
    // Each fault, from its start until 2 s after it was over (the service started again).
    const faults: { name: string; at: number; until: number }[] = [];
    const fault = async (name: string, act: () => Promise<void>) => {
      const before = scans + registered.length + reports;
      const at = Date.now();
      await act();
      faults.push({ name, at, until: Date.now() + 2000 });
      await waitFor(
        `work goes on after ${name}`,
        async () => scans + registered.length + reports > before + 10,
        30_000,
      );
    };
    try {
      await sleep(1000);
      for (const name of ['command-api-1', 'query-api-1', 'projector-1']) {
        await fault(`${name} killed`, async () => {
          shape.kill(name);
          await sleep(1000);
          await shape.shape('start', name);
        });
      }
      await fault('replica restarted', async () => {
        await shape.shape('stop', 'replica');
        await sleep(500);
        await shape.shape('start', 'replica');
      });
      await sleep(1000);
    } finally {
      running = false;
      await Promise.allSettled(load);
    }
    await Promise.all(load);
    expect(registered.length).toBeGreaterThan(20);
    expect(scans).toBeGreaterThan(20);

    // Every acknowledged registration is in the log once; the log holds no registration not acknowledged.
    const [{ n: inLog }] = (await primary.query(
      `SELECT count(*)::int AS n FROM es.events WHERE type = 'MemberRegistered' AND stream_id = ANY($1)`,
      [registered.map((id) => `account-${id}`)],
    )) as [{ n: number }];
    expect(inLog).toBe(registered.length);
    // The read models, on the primary and on the replica, equal a rebuild from the log, row for row.
    await waitFor('the replica’s read models caught up with the log', async () => {
      const now = await health();
      return now.readModels?.lagEvents === 0 && now.failing?.length === 0;
    });
    await buildFromLog(primary, store, 'rebuilt');
    expect(await readModelDifferences(primary, 'rm', 'rebuilt')).toEqual([]);
    expect(await readModelSizes(replica, 'rm')).toEqual(await readModelSizes(primary, 'rm'));

    // Clients saw only the attempts in flight when something died fail, each sent again with success.
    const during = (name: string) => {
      const { at, until } = faults.find((f) => f.name === name)!;
      return client.failed.filter((attempt) => attempt.at >= at && attempt.at < until);
    };
    const outside = client.failed.filter((attempt) => !faults.some((f) => attempt.at >= f.at && attempt.at < f.until));
    expect(outside).toEqual([]);
    // A killed instance: at most the calls it had in flight (five callers, one call each at a time).
    expect(during('command-api-1 killed').length).toBeLessThanOrEqual(5);
    expect(during('query-api-1 killed').length).toBeLessThanOrEqual(5);
    // A projector, or the replica (query-api reads the primary meanwhile): nobody notices.
    expect(during('projector-1 killed')).toEqual([]);
    expect(during('replica restarted')).toEqual([]);
    const byFault = faults.map(({ name }) => {
      const attempts = during(name);
      return `${name}: ${attempts.length} (${[...new Set(attempts.map((attempt) => attempt.reason.slice(0, 40)))].join('; ')})`;
    });
    console.info(
      `calls: ${registered.length} registrations, ${scans} scans and voids, ${reports} reports; ` +
        `failed attempts, each sent again with success: ${byFault.join(' | ')}`,
    );
  }, 300_000);
});

/** Running, and not a zombie (nothing may reap the services started by production.sh). */
function isAlive(pid: number) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
