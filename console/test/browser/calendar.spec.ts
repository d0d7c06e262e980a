import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { readFeed } from '@portal/deploy/testing/calendar-reader';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { axeViolations } from './axe.ts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  registerApproved,
  sidewaysOverflow,
  signIn,
  withPortalAndBrowser,
} from './chromium.ts';

const day = 86_400_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * The calendar feed from the member's side: settings give them a private address, a calendar app
 * (a parser here, with no session) reads their rounds from it, and a reset makes the old one dead.
 */
describe.skipIf(chromiumSkipReason())('the calendar feed in settings', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const call = apiCaller(() => portal.url);
  const partner = samplePartner({ fullName: 'Cora Calendar' });
  const member = sampleMember({ fullName: 'Mali Member' });
  let courseId = '';

  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, adminToken, { partners: [partner], members: [member] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    courseId = (
      await call(
        '/api/admin/createcourse',
        { courseTopic: 'Thai cooking', courseDescription: 'Curries', status: 'public', maxPeople: 0 },
        partnerToken,
      )
    )._id;
    for (const offset of [day, 8 * day]) {
      await call(
        `/api/admin/courses/${courseId}/rounds`,
        { roundStartTime: iso(offset), roundEndTime: iso(offset + 7_200_000) },
        partnerToken,
      );
    }
    await call(`/api/courses/${courseId}/enroll`, {}, (await call('/api/login', member)).partner.token);
  });

  const calendarCard = (page: Page) => page.locator('#calendar');
  const address = (page: Page) => page.getByTestId('calendar-address').inputValue();

  it('gives the member an address their calendar app reads their rounds from, and resets it', async () => {
    const page = await signIn(browser, portal.url, member);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.url });
    await page.goto(`${portal.url}/setting`);
    const card = calendarCard(page);
    await card.getByRole('heading', { name: 'Your rounds in your calendar' }).waitFor();
    await card.getByRole('button', { name: 'Create my calendar address' }).click();
    await page.getByText('Your calendar link is ready. Any earlier link no longer works.').waitFor();
    const first = await address(page);
    expect(first).toMatch(new RegExp(`^${portal.url}/api/calendar/[\\w-]{22}\\.[\\w-]{32}\\.ics\\?lang=en$`));
    expect(await card.getByRole('link', { name: 'Open in my calendar app' }).getAttribute('href')).toBe(
      first.replace(/^http:/, 'webcal:'),
    );
    await card.getByRole('button', { name: 'Copy address' }).click();
    await page.getByText('Address copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    // A calendar app: no session, only the address.
    const feed = await fetch(first);
    expect(feed.status).toBe(200);
    const { events } = readFeed(await feed.text());
    expect(events.map((event) => event.summary)).toEqual(['Thai cooking · Round 1', 'Thai cooking · Round 2']);
    expect(events[0]!.location).toContain(partner.companyName);

    expect(await axeViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SCREENSHOTS, 'calendar-en.png') });

    await card.getByRole('button', { name: 'Reset address' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Reset your calendar address?' });
    await dialog.getByRole('button', { name: 'Reset address' }).click();
    await expect.poll(() => address(page)).not.toBe(first);
    expect((await fetch(first)).status).toBe(404);
    expect((await fetch(await address(page))).status).toBe(200);
    await page.context().close();
  });

  it('reads in Thai on a phone in the dark theme, and the feed it gives is in Thai', async () => {
    const page = await signIn(browser, portal.url, member, { lang: 'th', width: 375, theme: 'dark' });
    await page.goto(`${portal.url}/setting`);
    const card = calendarCard(page);
    await card.getByRole('heading', { name: 'รอบเรียนของคุณในปฏิทิน' }).waitFor();
    const thai = await address(page);
    expect(thai).toMatch(/\?lang=th$/);
    const { events } = readFeed(await (await fetch(thai)).text());
    expect(events.map((event) => event.summary)).toEqual(['Thai cooking · รอบที่ 1', 'Thai cooking · รอบที่ 2']);
    expect(await sidewaysOverflow(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(SCREENSHOTS, 'calendar-th-375.png') });
    await page.context().close();
  });
});
