import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/** The value of one series in Prometheus's text format, or undefined when it is not there. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

/** GET /metrics: what an operator graphs and alerts on, in Prometheus's format. */
describe.each(testDatabases())('metrics on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember, courseWithRounds } = portalCalls(() => portal);
  const scrape = async (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    portal.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

  it('counts requests by route pattern and status, scans by outcome, and shows the read models’ lag', async () => {
    const teacher = partner();
    const member = await approvedMember('Counted Member');
    const course = await courseWithRounds(teacher, [[-3600_000, 3600_000]], 'Counted course');
    await call('POST', `/api/courses/${course.id}/enroll`, member.token);
    const before = (await scrape()).body;
    const accepted = series(before, 'portal_scans_total', { outcome: 'accepted' }) ?? 0;
    const refused = series(before, 'portal_scans_total', { outcome: 'refused', reason: 'duplicate' }) ?? 0;
    await call('PUT', `/api/admin/updateround/${course.rounds[0]}`, teacher, { userId: member.id });
    await call('PUT', `/api/admin/updateround/${course.rounds[0]}`, teacher, { userId: member.id });

    const answer = await scrape();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    const text = answer.body;
    expect(series(text, 'portal_scans_total', { outcome: 'accepted' })).toBe(accepted + 1);
    expect(series(text, 'portal_scans_total', { outcome: 'refused', reason: 'duplicate' })).toBe(refused + 1);
    // By the route's pattern, not its address (one series per route, whatever the ids).
    const scans = { method: 'PUT', route: '/api/admin/updateround/:roundId', status: '200' };
    expect(series(text, 'portal_http_requests_total', scans)).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(course.rounds[0]!);
    expect(
      series(text, 'portal_http_request_duration_seconds_count', { route: '/api/admin/updateround/:roundId' }),
    ).toBeGreaterThanOrEqual(2);
    expect(series(text, 'portal_read_model_lag_events', { service: 'portal' })).toBeGreaterThanOrEqual(0);
    expect(series(text, 'portal_read_model_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(series(text, 'portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(series(text, 'portal_http_requests_in_flight')).toBeGreaterThanOrEqual(1);
  });

  it('answers only the machine itself, or a scraper with METRICS_TOKEN', async () => {
    expect((await scrape({}, '10.1.2.3')).statusCode).toBe(404);
    process.env.METRICS_TOKEN = 'a-scraper-token-of-some-length';
    try {
      expect((await scrape({ authorization: 'Bearer a-scraper-token-of-some-length' }, '10.1.2.3')).statusCode).toBe(
        200,
      );
      expect((await scrape({ authorization: 'Bearer a-wrong-token-of-the-same-len' }, '10.1.2.3')).statusCode).toBe(
        404,
      );
      expect((await scrape({ authorization: 'Bearer ก' }, '10.1.2.3')).statusCode).toBe(404);
    } finally {
      delete process.env.METRICS_TOKEN;
    }
  });
});
