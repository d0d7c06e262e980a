// Over 250 lines: six screens read one seeded data set; split, each file would seed and
// start Chromium again.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  chromiumSkipReason,
  sidewaysOverflow,
  signIn,
  registerApproved,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * The reports as their readers see them, on a seeded data set: a member's dashboard (and an empty
 * one), the admins' overview, a member's attendance history, a course's counts "as of" a past
 * moment, and the attendance report and scan audit in Thai.
 */
describe.skipIf(chromiumSkipReason())('reports: dashboards, overview, history, as of', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), { env: { TZ: 'UTC' } });
  const partner = samplePartner({ fullName: 'Report Partner' });
  const mia = sampleMember({ fullName: 'Mia Member' });
  const noa = sampleMember({ fullName: 'Noa Nobody' });
  const eve = sampleMember({ fullName: 'Eve Empty' });
  const ids: Record<string, string> = {};
  let adminToken = '';
  let beforeVoid = '';
  let aikido = { id: '', rounds: [] as string[] };

  const call = <T = Record<string, never>>(path: string, body?: unknown, token?: string, method = 'POST') =>
    fetch(`${portal.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then((response) => response.json() as Promise<T & { _id: string; partner: { token: string } }>);

  beforeAll(async () => {
    adminToken = (await call('/api/login', ADMIN)).partner.token;
    Object.assign(ids, await registerApproved(call, adminToken, { partners: [partner], members: [mia, noa, eve] }));
    const partnerToken = (await call('/api/login', partner)).partner.token;
    const course = async (topic: string, rounds: [number, number][]) => {
      const { _id } = await call(
        '/api/admin/createcourse',
        { courseTopic: topic, courseDescription: `${topic} for beginners`, maxPeople: 0, status: 'public' },
        partnerToken,
      );
      const roundIds: string[] = [];
      for (const [start, end] of rounds) {
        const answer = await call<{ round: { _id: string } }>(
          `/api/admin/courses/${_id}/rounds`,
          { roundStartTime: iso(start), roundEndTime: iso(end) },
          partnerToken,
        );
        roundIds.push(answer.round._id);
      }
      return { id: _id, rounds: roundIds };
    };
    // Aikido's second round starts seconds after Mia and Noa enrol and ends before the tests: they
    // were expected in it (the count rule) and both miss it.
    const secondRoundEnds = Date.now() + 9000;
    aikido = await course('Aikido', [
      [-5 * hour, -4 * hour],
      [6000, 9000],
      [2 * hour, 3 * hour],
      [24 * hour, 25 * hour],
    ]);
    const baking = await course('Baking', [[-6 * hour, -5 * hour]]);
    const calligraphy = await course('Calligraphy', [[5 * hour, 6 * hour]]);
    const miaToken = (await call('/api/login', mia)).partner.token;
    const noaToken = (await call('/api/login', noa)).partner.token;
    for (const id of [aikido.id, baking.id, calligraphy.id]) await call(`/api/courses/${id}/enroll`, {}, miaToken);
    await call(`/api/courses/${aikido.id}/enroll`, {}, noaToken);
    // Mia was scanned offline in Aikido's first round and in Baking's; the scanners uploaded later.
    for (const [round, at] of [
      [aikido.rounds[0]!, -4.5 * hour],
      [baking.rounds[0]!, -5.5 * hour],
    ] as const) {
      await call(
        `/api/admin/updateround/${round}`,
        { userId: ids[mia.username], deviceTime: iso(at) },
        partnerToken,
        'PUT',
      );
    }
    if (Date.now() >= secondRoundEnds - 3000) throw new Error('setting up took longer than the second round allows');
    await new Promise((resolve) => setTimeout(resolve, secondRoundEnds - Date.now() + 300));
  });

  /** A full-page screenshot, the pointer moved off the charts so no tooltip covers them. */
  const shot = async (page: Page, name: string) => {
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
  };
  const stats = (page: Page) => page.locator('.dashboard-header .stats');

  /**
   * Every chart's axis labels readable: at least 12 px on screen and none over another, whichever
   * axis each belongs to (the first day's label under the y axis's 0 was one such, on a phone).
   * Recharts draws an axis's labels in a layer of their own, named for the axis.
   */
  const expectReadableChartLabels = async (page: Page) => {
    await page.locator('text.recharts-cartesian-axis-tick-value').first().waitFor();
    const labels = await page.locator('text.recharts-cartesian-axis-tick-value').evaluateAll((texts) =>
      texts.map((text) => {
        const box = text.getBoundingClientRect();
        return {
          axis: text.closest('.recharts-xAxis-tick-labels') ? 'x' : 'y',
          text: text.textContent,
          left: box.left,
          right: box.right,
          top: box.top,
          bottom: box.bottom,
          // The font's size as drawn: its CSS size times the SVG's scale on screen.
          size: parseFloat(getComputedStyle(text).fontSize) * ((text as SVGGraphicsElement).getScreenCTM()?.a ?? 1),
        };
      }),
    );
    expect(labels.filter((label) => label.axis === 'x').length).toBeGreaterThan(0);
    expect(labels.filter((label) => label.axis === 'y').length).toBeGreaterThan(0);
    for (const label of labels) expect(label.size, 'a tick label’s font size on screen').toBeGreaterThanOrEqual(12);
    const overlapping = labels.filter((a, i) =>
      labels.some((b, j) => j > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom),
    );
    expect(overlapping).toEqual([]);
  };

  it('shows a member their dashboard from real scans: figures, charts, courses with progress, next rounds', async () => {
    const page = await signIn(browser, portal.url, mia);
    await page.getByRole('heading', { name: 'Mia Member' }).waitFor();
    await expect
      .poll(() => stats(page).innerText())
      .toMatch(/Enrolled Courses\s+3\s+Upcoming Rounds\s+3\s+Attendance Rate\s+67%\s+Courses Completed\s+1 \/ 3/);
    // Her own profile, with the way to change it.
    const profile = page.getByRole('region', { name: 'My Profile' });
    expect(await profile.innerText()).toContain(mia.username);
    expect(await profile.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/setting');
    expect(await page.locator('.chart-legend').innerText()).toMatch(/Completed: 1\s+In Progress: 1\s+Upcoming: 1/);
    await page.locator('.recharts-pie-sector').first().waitFor();
    await page.locator('.recharts-line-curve').waitFor();
    expect(await page.locator('figure:has(#trend-chart-title) figcaption').innerText()).toContain(
      '2 of 3 rounds attended so far',
    );

    const card = page.locator('article.my-course').filter({ hasText: 'Aikido' });
    expect(await card.innerText()).toContain('25% · 1 of 4 rounds attended');
    expect(await card.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');
    await card.getByRole('button', { name: 'Continue Learning' }).click();
    expect(await card.locator('.entries').innerText()).toMatch(
      /Round 1 · .* · Attended Late\s*\n.*Round 2 · .* · Absent/,
    );
    const baking = page.locator('article.my-course').filter({ hasText: 'Baking' });
    expect(await baking.getByRole('button').innerText()).toBe('Review Course');

    const upcoming = page.locator('section.upcoming li');
    expect(await upcoming.count()).toBe(3);
    expect(await upcoming.first().innerText()).toContain('Aikido · Round 3');
    expect(await upcoming.nth(1).innerText()).toContain('Calligraphy · Round 1');
    await shot(page, 'dashboard-member-en.png');
    await upcoming.first().getByRole('link', { name: 'Join Round' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#member-pass');
    await page.getByTestId('pass-qr').waitFor();
    await page.context().close();

    const thai = await signIn(browser, portal.url, mia, { lang: 'th' });
    await expect
      .poll(() => stats(thai).innerText())
      .toMatch(/หลักสูตรที่ลงทะเบียน\s+3\s+รอบเรียนที่จะถึง\s+3\s+อัตราการเข้าเรียน\s+67%\s+หลักสูตรที่เรียนจบ\s+1 \/ 3/);
    await thai.getByRole('heading', { name: 'หลักสูตรของฉัน', exact: true }).waitFor();
    await thai.locator('.recharts-line-curve').waitFor();
    await shot(thai, 'dashboard-member-th.png');
    await thai.context().close();

    const phone = await signIn(browser, portal.url, mia, { lang: 'th', width: 375, theme: 'dark' });
    await phone.locator('.recharts-line-curve').waitFor();
    expect(await sidewaysOverflow(phone)).toBeLessThanOrEqual(0);
    await expectReadableChartLabels(phone);
    await shot(phone, 'dashboard-member-th-375.png');
    await phone.context().close();
  });

  it('tells a member without courses so, and points them at the catalogue', async () => {
    for (const [lang, text, browse] of [
      ['th', 'คุณยังไม่ได้ลงทะเบียนหลักสูตรใด', 'เลือกดูหลักสูตร'],
      ['en', 'You are not enrolled in any courses yet', 'Browse Courses'],
    ] as const) {
      const page = await signIn(browser, portal.url, eve, { lang });
      const empty = page.getByTestId('dashboard-empty');
      await empty.getByText(text).waitFor();
      expect(await page.locator('.recharts-surface').count()).toBe(0);
      await shot(page, `dashboard-empty-${lang}.png`);
      await empty.getByRole('link', { name: browse }).click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#catalogue');
      if (lang === 'en') {
        // Enrolling updates the dashboard above the catalogue at once, and so does leaving (last, as
        // the course left stays in her history).
        await page.getByRole('button', { name: 'Enrol' }).first().click();
        await expect.poll(() => stats(page).innerText(), { timeout: 5000 }).toMatch(/Enrolled Courses\s+1/);
        await page.getByRole('button', { name: 'Leave course' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
        await expect.poll(() => stats(page).innerText(), { timeout: 5000 }).toMatch(/Enrolled Courses\s+0/);
      }
      await page.context().close();
    }
  });

  it('gives admins the organisation at a glance, in both languages', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    await page.getByRole('heading', { name: 'Organisation overview' }).waitFor();
    const members = page.getByTestId('members-by-status');
    expect(await members.innerText()).toMatch(/Members\s+3\s+0\s+0/);
    expect(await members.innerText()).toMatch(/Partners\s+1\s+0\s+0/);
    expect(await page.getByTestId('course-figures').innerText()).toMatch(
      /Public\s+3\s+Private\s+0\s+Rounds held in the period\s+3/,
    );
    expect(await page.getByTestId('scans-total').innerText()).toBe('Accepted: 2 · Refused: 0 · Voided: 0 · 2 in all');
    expect(await page.getByTestId('course-rates').innerText()).toMatch(
      // Aikido: Mia in round 1 (nobody was enrolled when it started); Mia and Noa missed round 2.
      /Aikido\s+33% \(1 of 3\)\s+Baking\s+100% \(1 of 1\)/,
    );
    expect(await page.getByTestId('busiest-rounds').locator('li').count()).toBe(2);
    // How far the reports are behind the log: the portal's one projector, caught up.
    const lag = page.getByTestId('projector-lag');
    await lag.getByText('All reports: 0 events, 0 s behind').waitFor();
    expect(await lag.innerText()).toContain('One projector in the portal’s process reads the event log directly.');
    expect(await lag.locator('tbody tr').innerText()).toMatch(/^In the portal\s+–\s+–\s+0\s+0\s+–$/);
    await page.locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByLabel('Period').selectOption('7');
    // Recharts draws an axis's labels in a layer of their own, named for the axis.
    const dayLabels = page.locator('figure:has(#scans-chart-title) .recharts-xAxis-tick-labels text');
    await expect.poll(() => dayLabels.count()).toBeLessThanOrEqual(7);
    expect(await dayLabels.count()).toBeGreaterThan(0);
    await shot(page, 'overview-admin-en.png');
    await page.context().close();

    const thai = await signIn(browser, portal.url, ADMIN, { lang: 'th' });
    await thai.getByRole('heading', { name: 'ภาพรวมองค์กร' }).waitFor();
    expect(await thai.getByTestId('members-by-status').innerText()).toMatch(/สมาชิก\s+3/);
    expect(await thai.getByTestId('course-rates').innerText()).toContain('33% (1 จาก 3)');
    await thai.getByTestId('projector-lag').getByText('รายงานทั้งหมด: ตามหลัง 0 เหตุการณ์ 0 วินาที').waitFor();
    await shot(thai, 'overview-admin-th.png');
    await thai.context().close();

    const phone = await signIn(browser, portal.url, ADMIN, { lang: 'th', width: 375, theme: 'dark' });
    await phone.locator('.recharts-bar-rectangle').first().waitFor();
    await expectReadableChartLabels(phone);
    await shot(phone, 'overview-admin-th-375.png');
    await phone.context().close();

    const member = await signIn(browser, portal.url, noa);
    await member.goto(`${portal.url}/admin`);
    await member.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await member.context().close();
  });

  it('takes an admin from the scan audit to a member’s attendance history, in both languages', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    await page.goto(`${portal.url}/audit`);
    await page.getByRole('link', { name: 'Mia Member' }).first().click();
    await page.waitForURL(new RegExp(`/members/${ids[mia.username]}$`));
    await page.getByRole('heading', { name: 'Mia Member' }).waitFor();
    const rows = page.getByTestId('attendance-history').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByTestId('attendance-history').innerText()).toMatch(/Aikido[\s\S]*Baking/);
    // An admin sees the member's dashboard too, but cannot "join" a round for them.
    expect(await page.getByRole('link', { name: 'Join Round' }).count()).toBe(0);
    // They are the member's courses, not the admin's.
    expect(await page.getByRole('heading', { name: 'Courses by status' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'My Courses' }).count()).toBe(0);
    await shot(page, 'member-history-en.png');
    await page.context().close();

    const thai = await signIn(browser, portal.url, ADMIN, { lang: 'th' });
    await thai.goto(`${portal.url}/members/${ids[noa.username]}`);
    await thai.getByText('สมาชิกนี้ยังไม่เคยถูกสแกนเข้าเรียน').waitFor();
    await expect.poll(() => stats(thai).innerText()).toMatch(/อัตราการเข้าเรียน\s+0%/);
    await shot(thai, 'member-history-th.png');
    await thai.context().close();
  });

  it('shows a course’s counts as they stood before a scan was voided', async () => {
    beforeVoid = new Date(Date.now() + 1000).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await call(
      `/api/admin/rounds/${aikido.rounds[0]}/attendance/${ids[mia.username]}/void`,
      { reason: 'scanned the wrong pass' },
      adminToken,
    );
    const page = await signIn(browser, portal.url, ADMIN, { timezoneId: 'UTC' });
    await page.goto(`${portal.url}/courses/${aikido.id}`);
    const panel = page.locator('section.as-of');
    await panel.getByRole('heading', { name: 'Counts as of a past moment' }).waitFor();
    await panel.getByLabel('As of', { exact: true }).fill(beforeVoid.slice(0, 19));
    await panel.getByRole('button', { name: 'Show' }).click();
    const counts = panel.getByTestId('counts-as-of');
    await expect
      .poll(() => counts.locator('.stats').innerText())
      .toMatch(/Enrolled\s+2\s+Participants\s+1\s+Attended\s+1/);
    await shot(page, 'counts-as-of-en.png');
    // Now: the void has taken the scan away.
    await panel.getByLabel('As of', { exact: true }).fill(new Date(Date.now() + 60_000).toISOString().slice(0, 19));
    await panel.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => counts.locator('.stats').innerText()).toMatch(/Participants\s+0\s+Attended\s+0/);
    await panel.getByLabel('As of', { exact: true }).fill('2020-01-01T00:00:00');
    await panel.getByRole('button', { name: 'Show' }).click();
    await panel.getByText('The course did not exist at that moment.').waitFor();
    await page.context().close();

    const thai = await signIn(browser, portal.url, ADMIN, { lang: 'th', timezoneId: 'UTC' });
    await thai.goto(`${portal.url}/courses/${aikido.id}`);
    const thaiPanel = thai.locator('section.as-of');
    await thaiPanel.getByLabel('ณ เวลา').fill(beforeVoid.slice(0, 19));
    await thaiPanel.getByRole('button', { name: 'แสดง' }).click();
    await expect.poll(() => thaiPanel.getByTestId('counts-as-of').innerText()).toMatch(/เข้าเรียน\s+1/);
    await shot(thai, 'counts-as-of-th.png');
    await thai.context().close();
  });

  it('shows the attendance report and the scan audit in Thai', async () => {
    const page = await signIn(browser, portal.url, ADMIN, { lang: 'th' });
    await page.goto(`${portal.url}/report`);
    await page.getByRole('heading', { name: 'ภาพรวมการเข้าเรียนของหลักสูตร' }).waitFor();
    await page.locator('article.course-card').filter({ hasText: 'Aikido' }).waitFor();
    await shot(page, 'report-th.png');
    await page.goto(`${portal.url}/audit`);
    await page.getByRole('heading', { name: 'ประวัติการสแกน' }).waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3); // two scans and one void
    expect(await page.locator('tbody').innerText()).toContain('scanned the wrong pass');
    await shot(page, 'audit-th.png');
    await page.context().close();
  });

  it('says when the report’s answer is malformed, and when a course has no participants', async () => {
    const page = await signIn(browser, portal.url, ADMIN);
    // Calligraphy's only round is still to come: nobody has been scanned in it.
    await page.goto(`${portal.url}/report`);
    const calligraphy = page.locator('article.course-card').filter({ hasText: 'Calligraphy' });
    await calligraphy.getByRole('button', { name: 'View All Participants' }).click();
    await page.getByRole('dialog').getByText('No participants found for this course across all rounds.').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // An answer that is not the contract's shape (a proxy's page, an old server): said as the spec says.
    await page.route('**/api/admin/courses?*', (route) => route.fulfill({ json: { courses: 'not a list' } }));
    await page.reload();
    await page.getByText('Failed to load course overview data. Invalid response structure.').waitFor();
    await page.context().close();
  });
});
