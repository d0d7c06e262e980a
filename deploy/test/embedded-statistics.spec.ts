import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDatabase } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

/**
 * The embedded portal keeps its planner's statistics itself (PGlite has no autovacuum): once the
 * members have grown, the planner knows how many of them a registration page filters, which is
 * what makes it walk the date index for a deep page instead of sorting them all.
 */
describe('the embedded portal', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(pgliteDatabase, { statisticsEveryMs: 100 });
  });
  afterAll(() => portal.close());
  const { call } = portalCalls(() => portal);

  /** The planner's estimate of the members a registration page is chosen from. */
  const estimate = async () => {
    const [row] = await portal.db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT id FROM rm.accounts_sealed WHERE role IN ('member', 'partner') AND status <> 'erased'`,
    );
    return row!['QUERY PLAN'][0].Plan['Plan Rows'];
  };

  it('knows how many members a registration page filters once they have grown, and pages them', async () => {
    await portal.db.query(
      `INSERT INTO rm.accounts_sealed (id, role, status, registered_at, updated_at)
       SELECT 'grown' || n, 'member', CASE WHEN n % 3 = 0 THEN 'approved' ELSE 'pending' END,
              timestamptz '2025-01-01' + n * interval '1 minute', now()
         FROM generate_series(1, 20000) n`,
    );
    await expect.poll(estimate, { timeout: 15_000, interval: 200 }).toBeGreaterThan(18_000);
    const page = await call('GET', '/api/admin/registration?page=400', portal.adminToken);
    expect(page.statusCode).toBe(200);
    // Ten a page, newest first: the 400th page is the 3,991st to 4,000th newest.
    expect(page.json().members.map((member: { _id: string }) => member._id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `grown${16010 - i}`),
    );
  });
});
