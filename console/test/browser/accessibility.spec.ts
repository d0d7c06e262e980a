import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { type Violation, axeViolations } from './axe.ts';
import {
  ADMIN,
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  newPage,
  registerApproved,
  roundStartingNow,
  sidewaysOverflow,
  signIn,
  withPortalAndBrowser,
} from './chromium.ts';

type Who = 'visitor' | 'member' | 'partner' | 'admin';
type Lang = 'en' | 'th';
type Theme = 'light' | 'dark';

/** Ids the routes with parameters need: a partner's course with a round under way, a member. */
interface Story {
  courseId: string;
  roundUrl: string;
  memberId: string;
}

const everyone = ['/about', '/contact', '/helpcenter', '/policy', '/terms', '/cookie', '/camera', '/no-such-page'];

/**
 * The spec's route table, for each role that can open it (and, as Access Denied, a route each
 * signed-in role cannot): every one is walked in both languages, both themes, both widths.
 */
const routes: Record<Who, (story: Story) => string[]> = {
  visitor: () => ['/', '/login', '/register', '/registeradmin', ...everyone, '/report'],
  member: (s) => ['/e-market', '/setting', '/notification', s.roundUrl, ...everyone, '/admin'],
  partner: (s) => [
    '/partner',
    '/courses',
    `/courses/${s.courseId}`,
    s.roundUrl,
    `/courses/edit/${s.courseId}`,
    '/createcourse',
    '/report',
    '/notification',
    '/sendemail',
    '/setting',
    '/e-market',
    '/registrations',
  ],
  admin: (s) => [
    '/admin',
    '/report',
    '/registrations',
    '/audit',
    `/members/${s.memberId}`,
    '/courses',
    `/courses/${s.courseId}`,
    s.roundUrl,
    `/courses/edit/${s.courseId}`,
    '/createcourse',
    '/addemployee',
    '/sendemail',
    '/inbox',
    '/notification',
    '/setting',
    '/e-market',
    '/cookie',
  ],
};

const combinations = (['en', 'th'] as const).flatMap((lang) =>
  (['light', 'dark'] as const).flatMap((theme) => ([1280, 375] as const).map((width) => ({ lang, theme, width }))),
);

/** Waits until the screen has its heading and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => !document.querySelector('.spinner, [aria-busy="true"]'), undefined, {
    timeout: 15_000,
  });
  await page.waitForTimeout(250); // transitions (the drawer, a fade) end before contrast is measured
}

/** The innermost elements that reach past the right edge of the screen, to say what spills. */
const widest = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((element) => !element.parentElement?.closest('.table-wrap, [style*="overflow"]'))
      .filter(
        (element) =>
          ![...element.children].some((child) => child.getBoundingClientRect().right > window.innerWidth + 0.5),
      )
      .slice(0, 3)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`)
      .join(', '),
  );

interface Finding {
  who: Who;
  route: string;
  at: string;
  problems: string[];
}

describe.skipIf(chromiumSkipReason())('every route, for everyone who can open it, checked by axe', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started));
  const member = sampleMember({ username: 'axemember01' });
  const partner = samplePartner({ username: 'axepartner01' });
  const people: Record<Exclude<Who, 'visitor'>, { username: string; password: string }> = {
    member,
    partner,
    admin: ADMIN,
  };
  let story: Story;
  const findings: Finding[] = [];

  beforeAll(async () => {
    const call = apiCaller(() => portal.url);
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    const ids = await registerApproved(call, adminToken, { partners: [partner], members: [member] });
    const partnerToken = (await call('/api/login', partner)).partner.token;
    const { courseId, roundUrl } = await roundStartingNow(call, partnerToken, [member], 'Accessible course');
    story = { courseId, roundUrl, memberId: ids[member.username]! };
  }, 60_000);

  afterAll(() => {
    const rows = findings.map(
      (finding) =>
        `${finding.who.padEnd(8)} ${finding.route.padEnd(48)} ${finding.at.padEnd(17)} ${finding.problems.join('; ')}`,
    );
    console.log(
      `\naxe: ${findings.length} route/role/language/theme/width combinations with problems\n${rows.join('\n') || '(none)'}\n`,
    );
  });

  it('ties every field error to its field when a form is sent empty, in both languages', async () => {
    for (const lang of ['en', 'th'] as const) {
      for (const route of ['/register', '/registeradmin', '/contact']) {
        const page = await newPage(browser, { lang });
        await page.goto(`${portal.url}${route}`);
        await settled(page);
        await page.locator('main button[type=submit]').click();
        await page.locator('[aria-invalid="true"]').first().waitFor();
        const untied = await page.evaluate(() =>
          [...document.querySelectorAll('[aria-invalid="true"]')]
            .filter((field) => {
              const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
              return !ids.some((id) => document.getElementById(id)?.textContent?.trim());
            })
            .map((field) => field.getAttribute('name') ?? field.id),
        );
        expect(untied, `${route} in ${lang}: fields whose error is not tied to them`).toEqual([]);
        expect(await axeViolations(page), `${route} in ${lang} with its errors showing`).toEqual([]);
        await page.context().close();
      }
    }
  });

  for (const who of ['visitor', 'member', 'partner', 'admin'] as const) {
    for (const { lang, theme, width } of combinations) {
      const at = `${lang} ${theme} ${width}px`;
      it(`has no serious or critical violation, no sideways scroll and 24 px targets for a ${who}, ${at}`, async () => {
        const options = { lang, theme, width } satisfies { lang: Lang; theme: Theme; width: number };
        const page =
          who === 'visitor' ? await newPage(browser, options) : await signIn(browser, portal.url, people[who], options);
        const found: Finding[] = [];
        for (const route of routes[who](story)) {
          await page.goto(`${portal.url}${route}`);
          const unsettled = await settled(page).then(
            () => null,
            (error: Error) => `never settled (${error.message.split('\n')[0]})`,
          );
          if (unsettled) {
            found.push({ who, route, at, problems: [unsettled] });
            continue;
          }
          const problems = (await axeViolations(page)).map(
            (violation: Violation) => `${violation.rule} (${violation.impact}) at ${violation.targets.join(', ')}`,
          );
          if (width === 1280) {
            // On a desktop every table fits: no column is cut off behind a sideways scroll.
            const cut = await page.evaluate(
              () =>
                [...document.querySelectorAll('.table-wrap')].filter((wrap) => wrap.scrollWidth > wrap.clientWidth + 1)
                  .length,
            );
            if (cut > 0) problems.push(`${cut} table(s) wider than their frame`);
          }
          if (width === 375) {
            const overflow = await sidewaysOverflow(page);
            if (overflow > 0) problems.push(`scrolls sideways by ${overflow} px (${await widest(page)})`);
          }
          if (problems.length > 0) found.push({ who, route, at, problems });
          if (
            (lang === 'th' && theme === 'dark' && width === 375) ||
            (lang === 'en' && theme === 'light' && width === 1280)
          ) {
            const name = `${route
              .replace(/[0-9a-f]{24}/g, 'id')
              .replaceAll('/', '-')
              .replace(/^-$/, '-root')}`;
            await page.screenshot({
              path: join(SCREENSHOTS, `axe-${who}${name}-${lang}-${width}.png`),
              fullPage: true,
            });
          }
        }
        await page.context().close();
        findings.push(...found);
        expect(found.map((finding) => `${finding.route}: ${finding.problems.join('; ')}`)).toEqual([]);
      }, 300_000);
    }
  }
});
