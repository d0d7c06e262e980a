// Over 250 lines: the course list, the form with rounds, the details and the catalogue in
// one Chromium session on one portal: split, each part would start both again.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningPortal } from '@portal/deploy/testing/portal-process';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import {
  SCREENSHOTS,
  apiCaller,
  chromiumSkipReason,
  signIn as signInAt,
  registerApproved,
  ADMIN,
  withPortalAndBrowser,
} from './chromium.ts';

type Person = { username: string; password: string };

/** The value a datetime-local input takes for a moment `hours` from now, in the browser's zone (UTC here). */
const inHours = (hours: number) => {
  const at = new Date(Date.now() + hours * 3600_000);
  at.setSeconds(0, 0);
  return at.toISOString().slice(0, 16);
};

describe.skipIf(chromiumSkipReason())('courses: list, form with rounds, details, and the members’ catalogue', () => {
  let portal: RunningPortal;
  let browser: Browser;
  withPortalAndBrowser((started) => ({ portal, browser } = started), { env: { TZ: 'UTC' } });
  const partner = samplePartner({ fullName: 'Course Partner' });
  const otherPartner = samplePartner({ fullName: 'Other Partner' });
  const members = [sampleMember({ fullName: 'First Member' }), sampleMember({ fullName: 'Second Member' })];

  beforeAll(async () => {
    const adminToken = (await call('/api/login', ADMIN)).partner.token;
    await registerApproved(call, adminToken, { partners: [partner, otherPartner], members });
  });

  const call = apiCaller(() => portal.url);

  const signIn = (person: Person, lang: 'en' | 'th' = 'en', width = 1280, theme: 'light' | 'dark' = 'light') =>
    signInAt(browser, portal.url, person, { lang, width, theme, timezoneId: 'UTC' });
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
  const cards = (page: Page) => page.locator('article.course-card');
  let courseUrl = '';

  it('creates a course with an image and rounds, checking every field first, and shows its details', async () => {
    const page = await signIn(partner);
    await page.locator('summary', { hasText: 'User menu' }).click();
    await page.locator('.user-menu').getByRole('link', { name: 'Course list' }).click();
    await page.getByText('No courses yet. Add the first one.').waitFor();
    await page.getByRole('link', { name: 'Add New Course' }).click();
    await page.getByRole('heading', { name: 'Create New Course: New Course' }).waitFor();
    expect(await page.getByLabel('Course Status').inputValue()).toBe('private');

    // Nothing filled: each field says what it needs; an overlapping round is caught before sending.
    await page.getByLabel('Max Participants').fill('');
    await page.getByRole('button', { name: 'Add round' }).click();
    await page.getByRole('button', { name: 'Add round' }).click();
    await page.getByRole('button', { name: 'Create Course' }).click();
    await page.getByText('Please enter the course topic.').waitFor();
    await page.getByText('Please enter the course description.').waitFor();
    await page.getByText('Max participants must be a whole number, 0 or more (0 means unlimited).').waitFor();
    expect(await page.getByText('Please give the round’s start time.').count()).toBe(2);
    const starts = page.getByLabel('Start');
    const ends = page.getByLabel('End');
    await starts.nth(0).fill(inHours(48));
    await ends.nth(0).fill(inHours(47));
    await starts.nth(1).fill(inHours(-1));
    await ends.nth(1).fill(inHours(48.5));
    await page.getByRole('button', { name: 'Create Course' }).click();
    await page.getByText('The round must end after it starts.').waitFor();
    await ends.nth(0).fill(inHours(50));
    await page.getByRole('button', { name: 'Create Course' }).click();
    await page.getByText('This time overlaps another round of the course.').waitFor();
    await ends.nth(1).fill(inHours(1));
    // Numbered in time order: the second row starts first.
    expect(await page.locator('.round-row strong').allInnerTexts()).toEqual([
      expect.stringContaining('Round 2'),
      expect.stringContaining('Round 1'),
    ]);

    await page.getByLabel('Course Topic').fill('Thai Cooking Basics');
    await page.getByRole('heading', { name: 'Create New Course: Thai Cooking Basics' }).waitFor();
    await page.getByLabel('Course Description').fill('Curry pastes, rice and a market visit.');
    await page.getByLabel('Max Participants').fill('1');
    await page.getByLabel('Course Status').selectOption('public');
    const picture = await page.screenshot({ clip: { x: 0, y: 0, width: 640, height: 360 } });
    await page.getByLabel('Course Image').setInputFiles({ name: 'course.png', mimeType: 'image/png', buffer: picture });
    await page.getByRole('img', { name: 'Preview of the chosen image' }).waitFor();
    await shot(page, 'course-create-en.png');
    await page.getByRole('button', { name: 'Create Course' }).click();
    await page.getByRole('alertdialog').getByText('Create this course?').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();

    await page.waitForURL(/\/courses\/[0-9a-f]{24}$/);
    courseUrl = page.url();
    await page.getByText('Course created successfully!').waitFor();
    const created = page.getByRole('alertdialog', { name: 'Course created' });
    await created.getByText('Your course has been created successfully.').waitFor();
    await created.getByRole('button', { name: 'OK' }).click();
    await page.reload();
    await page.getByRole('heading', { name: 'Thai Cooking Basics' }).waitFor();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.getByRole('heading', { name: 'Thai Cooking Basics' }).waitFor();
    expect(await page.locator('.course-summary img').getAttribute('src')).toMatch(/^\/uploads\/courses\//);
    expect(await page.locator('.tile').allInnerTexts()).toEqual([
      expect.stringMatching(/Participants\s+0/),
      expect.stringMatching(/Attended\s+0/),
      expect.stringMatching(/Absent\s+0/),
    ]);
    const rounds = page.locator('.round-card');
    await expect.poll(() => rounds.count()).toBe(2);
    expect(await rounds.nth(0).innerText()).toMatch(/Round 1[\s\S]*Active/);
    expect(await rounds.nth(1).innerText()).toMatch(/Round 2[\s\S]*Inactive/);
    await shot(page, 'course-details-en.png');
    await rounds.nth(1).click();
    await page.getByRole('alertdialog').getByText('Round Not Active').waitFor();
    await page.getByText('This course round can only be accessed during its scheduled time.').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await rounds.nth(0).click();
    await page.waitForURL(/\/courses\/[0-9a-f]{24}\/rounds\/[0-9a-f]{24}$/);
    await page.context().close();
  });

  it('edits the text and cancels a round; another partner can view but not change it', async () => {
    const page = await signIn(partner);
    await page.goto(courseUrl);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Update Course: Thai Cooking Basics' }).waitFor();
    await page.getByLabel('Course Topic').fill('Thai Cooking I');
    // Round 1 is being held: history, shown read-only with why, and never offered for cancelling.
    await page.getByText('This round has started, so it is kept as it was held.', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel round: Round 1' }).count()).toBe(0);
    expect(await page.locator('.round-started input[readonly]').count()).toBe(2);
    await shot(page, 'course-form-started-round-en.png');
    await page.getByRole('button', { name: 'Cancel round: Round 2' }).click();
    // Calls itself a PNG but is not one: the server refuses it, and the text is saved all the same.
    await page
      .getByLabel('Course Image')
      .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    await page.getByRole('button', { name: 'Update Course' }).click();
    await page.waitForURL(courseUrl);
    await page.getByText('Course updated successfully!').waitFor();
    await page
      .getByText('Warning: Course details updated, but image upload failed. Please try uploading the image again.')
      .waitFor();
    await page.getByRole('heading', { name: 'Thai Cooking I' }).waitFor();
    await expect.poll(() => page.locator('.round-card').count()).toBe(1);
    await page.context().close();

    const other = await signIn(otherPartner);
    await other.goto(`${portal.url}/courses`);
    const card = cards(other).filter({ hasText: 'Thai Cooking I' });
    await card.waitFor();
    expect(await card.getByRole('link', { name: 'View Details' }).count()).toBe(1);
    expect(await card.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    // The status is shown, not offered: only the creator and admins change it, here as on /report.
    await card.getByText('Public', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: /^Public/ }).count()).toBe(0);
    await other.goto(courseUrl.replace('/courses/', '/courses/edit/'));
    await other.getByText('Only the course creator or an administrator can change this course.').waitFor();

    // A course that does not exist: the server's reason, Retry Loading, and the way back.
    await other.goto(`${portal.url}/courses/edit/ffffffffffffffffffffffff`);
    await other.getByText('Course not found.').waitFor();
    await other.getByRole('button', { name: 'Retry Loading' }).click();
    await other.getByText('Course not found.').waitFor();
    await other.getByRole('button', { name: 'Go to Courses' }).click();
    await other.waitForURL(`${portal.url}/courses`);
    await other.context().close();
  });

  it('lets members enrol in public courses up to the limit, see their own and leave', async () => {
    const first = await signIn(members[0]!);
    await first.goto(`${portal.url}/courses`);
    await first.getByText('Go to Login').waitFor(); // the Access Denied view
    await first.goto(`${portal.url}/e-market`);
    const card = cards(first).filter({ hasText: 'Thai Cooking I' });
    await card.getByText('1 place left').waitFor();
    await card.getByRole('button', { name: 'Enrol' }).click();
    await first.getByText('You are enrolled.').waitFor();
    await card.getByRole('button', { name: 'Leave course' }).waitFor();
    await first.getByRole('tab', { name: 'My courses' }).click();
    await cards(first).filter({ hasText: 'Thai Cooking I' }).waitFor();
    await shot(first, 'catalogue-mine-en.png');

    const second = await signIn(members[1]!, 'th', 375, 'dark');
    await second.goto(`${portal.url}/e-market`);
    const full = cards(second).filter({ hasText: 'Thai Cooking I' });
    await full.getByRole('button', { name: 'เต็มแล้ว' }).waitFor();
    expect(await full.getByRole('button', { name: 'เต็มแล้ว' }).isDisabled()).toBe(true);
    expect(await second.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
      0,
    );
    await shot(second, 'catalogue-th-375.png');

    await first.getByRole('button', { name: 'Leave course' }).click();
    await first.getByRole('button', { name: 'Confirm' }).click();
    await first.getByText('You have left the course.').waitFor();
    await first.getByText('You have not enrolled in a course yet. Choose one under All courses.').waitFor();
    await second.reload();
    await full.getByRole('button', { name: 'ลงทะเบียน' }).waitFor();
    await first.context().close();
    await second.context().close();
  });

  it('searches, sorts and pages the list, toggles status with a toast, and deletes after asking', async () => {
    const token = (await call('/api/login', partner)).partner.token;
    for (let n = 1; n <= 10; n += 1) {
      await call(
        '/api/admin/createcourse',
        {
          courseTopic: `Batch course ${String(n).padStart(2, '0')}`,
          courseDescription: `Batch ${n}`,
          status: 'public',
        },
        token,
      );
    }
    const page = await signIn(partner);
    await page.goto(`${portal.url}/courses`);
    await expect.poll(() => cards(page).count()).toBe(9);
    await page.getByText('1 / 2').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('2 / 2').waitFor();
    await expect.poll(() => cards(page).count()).toBe(2);

    await page.getByRole('searchbox').fill('BATCH COURSE 0');
    await expect.poll(() => cards(page).count()).toBe(9);
    expect(await page.getByText('1 / 1').count()).toBe(0); // one page: no pager
    await page.getByLabel('Sort by').selectOption('topic');
    await page.getByLabel('Order').selectOption('asc');
    await expect.poll(() => page.locator('.course-card h2').first().innerText()).toBe('Batch course 01');
    await page.getByRole('searchbox').fill('nothing like this');
    await page.getByText('No courses match your search.').waitFor();

    await page.getByRole('searchbox').fill('Thai Cooking');
    const card = cards(page).filter({ hasText: 'Thai Cooking I' });
    await card.getByRole('button', { name: /^Public/ }).click();
    await page.getByText('Course status updated to PRIVATE').waitFor();
    await card.getByRole('button', { name: /^Private/ }).waitFor();
    await shot(page, 'course-list-en.png');

    await page.getByRole('searchbox').fill('Batch course 09');
    const doomed = cards(page).filter({ hasText: 'Batch course 09' });
    await doomed.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('You will not be able to recover this course!').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await doomed.count()).toBe(1);
    // Deleting looks dangerous and is never the default: red, focus on Cancel, Enter keeps the
    // course, Escape closes, and Tab never leaves the dialog.
    await doomed.getByRole('button', { name: 'Delete' }).click();
    const yes = dialog.getByRole('button', { name: 'Yes, delete it!' });
    expect(await yes.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(185, 28, 28)');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await doomed.count()).toBe(1);
    await doomed.getByRole('button', { name: 'Delete' }).click();
    for (let step = 0; step < 5; step++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role=alertdialog]')))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await doomed.count()).toBe(1);
    await doomed.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.getByText('The course has been deleted.').waitFor();
    await page.getByText('No courses match your search.').waitFor();

    // Refused by the server (deleted meanwhile elsewhere): an error, and the list is what the server holds.
    await page.getByRole('searchbox').fill('Batch course 10');
    const batch = cards(page).filter({ hasText: 'Batch course 10' });
    await batch.waitFor();
    const id = await batch.getByRole('link', { name: 'View Details' }).getAttribute('href');
    await fetch(`${portal.url}/api/admin/deletecourse/${id!.split('/').at(-1)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    await batch.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.getByRole('alertdialog').getByText('Course not found.').waitFor();
    await page.context().close();
  });

  it('shows the list and the form in Thai, at 375 px in the dark theme without sideways scrolling', async () => {
    for (const [path, heading] of [
      ['/courses', 'รายการหลักสูตร'],
      ['/createcourse', 'สร้างหลักสูตรใหม่: หลักสูตรใหม่'],
      [new URL(courseUrl).pathname, 'Thai Cooking I'],
      [new URL(courseUrl).pathname.replace('/courses/', '/courses/edit/'), 'แก้ไขหลักสูตร: Thai Cooking I'],
    ] as const) {
      const page = await signIn(ADMIN, 'th', 375, 'dark');
      await page.goto(`${portal.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      await shot(page, `course${path.replaceAll('/', '-').slice(0, 24)}-th-375.png`);
      await page.context().close();
    }
  });
});
