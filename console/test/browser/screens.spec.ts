import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  newPage,
  signIn,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

type Lang = 'en' | 'th';
type Who = 'visitor' | 'member' | 'admin';

/** Every screen of the identity area and the small pages, who sees it, and its heading in each language. */
const screens: { path: string; who: Who; heading: Record<Lang, string> }[] = [
  { path: '/login', who: 'visitor', heading: { en: 'Log in', th: 'เข้าสู่ระบบ' } },
  { path: '/register', who: 'visitor', heading: { en: 'Member registration', th: 'สมัครสมาชิก' } },
  { path: '/registeradmin', who: 'visitor', heading: { en: 'Partner registration', th: 'สมัครสมาชิกพาร์ทเนอร์' } },
  { path: '/terms', who: 'visitor', heading: { en: 'Website terms of use', th: 'ข้อกำหนดและเงื่อนไขการใช้งานเว็บไซต์' } },
  {
    path: '/policy',
    who: 'visitor',
    heading: {
      en: 'Consent notice for the collection, use and disclosure of personal data',
      th: 'หนังสือแจ้งการขอความยินยอมในการเก็บรวบรวม ใช้ และเปิดเผยข้อมูลส่วนบุคคล',
    },
  },
  { path: '/cookie', who: 'visitor', heading: { en: 'Cookie policy', th: 'นโยบายคุกกี้' } },
  { path: '/setting', who: 'member', heading: { en: 'Account settings', th: 'ตั้งค่าบัญชี' } },
  { path: '/setting', who: 'admin', heading: { en: 'Account settings', th: 'ตั้งค่าบัญชี' } },
  { path: '/addemployee', who: 'admin', heading: { en: 'Manage employee', th: 'จัดการพนักงาน' } },
  { path: '/contact', who: 'visitor', heading: { en: 'Contact Us', th: 'ติดต่อเรา' } },
  { path: '/helpcenter', who: 'visitor', heading: { en: 'Help Center', th: 'ศูนย์ช่วยเหลือ' } },
  { path: '/about', who: 'member', heading: { en: 'About Us', th: 'เกี่ยวกับเรา' } },
  { path: '/notification', who: 'member', heading: { en: 'Notifications', th: 'การแจ้งเตือน' } },
  { path: '/camera', who: 'member', heading: { en: 'Camera', th: 'กล้อง' } },
  { path: '/sendemail', who: 'admin', heading: { en: 'Send e-mail', th: 'ส่งอีเมล' } },
  { path: '/inbox', who: 'admin', heading: { en: 'Messages', th: 'ข้อความ' } },
  { path: '/no-such-page', who: 'admin', heading: { en: 'Oops! Page Not Found', th: 'ขออภัย ไม่พบหน้าที่คุณต้องการ' } },
];

describe.skipIf(chromiumSkipReason())(
  'every identity screen and small page in both languages, on a phone and in the dark',
  () => {
    let portal: RunningPortal;
    let browser: Browser;
    withPortalAndBrowser((started) => ({ portal, browser } = started));
    const member = sampleMember();

    beforeAll(async () => {
      const post = apiCaller(() => portal.url);
      const adminToken = (await post('/api/login', ADMIN)).partner.token;
      const { _id } = await post('/api/members/register', member);
      await post(`/api/admin/registration/${_id}/status`, { status: 'approved' }, adminToken, 'PUT');
    });

    const open = (who: Who, lang: Lang, width: number, theme: 'light' | 'dark'): Promise<Page> =>
      who === 'visitor'
        ? newPage(browser, { lang, width, theme })
        : signIn(browser, portal.url, who === 'admin' ? ADMIN : member, { lang, width, theme });

    for (const lang of ['en', 'th'] as const) {
      for (const screen of screens) {
        it(`shows ${screen.path} to ${screen.who === 'admin' ? 'an' : 'a'} ${screen.who} in ${lang === 'en' ? 'English' : 'Thai'}, also at 375 px in the dark theme without sideways scrolling`, async () => {
          for (const [width, theme] of [
            [1280, 'light'],
            [375, 'dark'],
          ] as const) {
            const page = await open(screen.who, lang, width, theme);
            await page.goto(`${portal.url}${screen.path}`);
            await page.getByRole('heading', { level: 1, name: screen.heading[lang], exact: true }).waitFor();
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
            expect(await page.evaluate(() => document.documentElement.dataset.theme ?? 'light')).toBe(theme);
            // Thai marks stack above and below the letters: every line of the heading and the text
            // has at least 1.5 times the font's size, so they never touch the line above.
            const spacing = await page.evaluate(() =>
              [...document.querySelectorAll('h1, main p, main label')].slice(0, 12).map((element) => {
                const style = getComputedStyle(element);
                return parseFloat(style.lineHeight) / parseFloat(style.fontSize);
              }),
            );
            for (const ratio of spacing) expect(ratio, `${screen.path}: line-height`).toBeGreaterThanOrEqual(1.5);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            expect(overflow, `${screen.path} as ${screen.who} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
            const name = `screen${screen.path.replaceAll('/', '-')}-${screen.who}-${lang}-${width}.png`;
            await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
            await page.context().close();
          }
        });
      }
    }
  },
);
