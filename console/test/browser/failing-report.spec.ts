import { join } from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { postgresSkipReason } from '@portal/platform/testing/databases';
import { SCREENSHOTS, chromiumSkipReason, signIn, ADMIN, withPortalAndBrowser } from './chromium.ts';

/**
 * A report that stopped at an event it could not apply is shown to admins loudly on the overview,
 * in both languages and on a phone, while the other reports stay current; it goes away by itself
 * once the cause is fixed. The fault is made by hand on the portal's PostgreSQL: a read-model
 * table dropped, then made again.
 */
describe.skipIf(chromiumSkipReason() ?? postgresSkipReason())('a failing report on the admins’ overview', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), { database: 'postgres' });
  let sql: pg.Client;
  beforeAll(async () => {
    sql = new pg.Client({ connectionString: portal.databaseUrl! });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
  });

  it('says which report stopped where and why, and clears when it has caught up', async () => {
    await sql.query('ALTER TABLE rm.contact_messages_sealed RENAME TO contact_messages_away');
    const sent = await fetch(`${portal.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stuck Visitor', email: 'stuck@example.com', message: 'waiting to be shown' }),
    });
    expect(sent.status).toBe(201);
    const position = ((await sent.json()) as { position: number }).position;

    const page = await signIn(browser, portal.url, ADMIN);
    const banner = page.getByTestId('projector-lag').getByRole('alert');
    await banner
      .getByText(`The messages and e-mail report stopped at event ${position}: it could not apply it.`, {
        exact: false,
      })
      .waitFor({ timeout: 15_000 });
    expect(await banner.innerText()).toContain('contact_messages');
    await banner.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'projectors-failing-en.png'), fullPage: true });
    await page.context().close();

    const phone = await signIn(browser, portal.url, ADMIN, { lang: 'th', width: 375, theme: 'dark' });
    const thaiBanner = phone.getByTestId('projector-lag').getByRole('alert');
    await thaiBanner.getByText(`รายงาน ข้อความและอีเมล หยุดที่เหตุการณ์ลำดับ ${position}`, { exact: false }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await thaiBanner.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SCREENSHOTS, 'projectors-failing-th-375.png'), fullPage: true });

    // Fixed by hand: it catches up by itself, the banner goes, the message is there once.
    await sql.query('ALTER TABLE rm.contact_messages_away RENAME TO contact_messages_sealed');
    const failing = async () =>
      ((await (await fetch(`${portal.url}/api/health`)).json()) as { failing: unknown[] }).failing.length;
    await expect.poll(failing, { timeout: 20_000, interval: 250 }).toBe(0);
    await phone.reload();
    await phone.getByTestId('projector-lag').locator('tbody tr').first().waitFor();
    expect(await phone.getByTestId('projector-lag').getByRole('alert').count()).toBe(0);
    await phone.context().close();
    const { rows: messages } = await sql.query(`SELECT count(*)::int AS n FROM rm.contact_messages_sealed`);
    expect(messages).toEqual([{ n: 1 }]);
  });
});
