import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { START } from '@portal/platform/store/port';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const minute = 60_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

describe.each(testDatabases())('notifications on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, approvedMember } = portalCalls(() => portal);
  const list = async (token: string, query = '') => (await call('GET', `/api/notifications?${query}`, token)).json();
  const kinds = (answer: { notifications: { type: string; detail: string | null }[] }) =>
    answer.notifications.map((n) => (n.detail ? `${n.type}:${n.detail}` : n.type));

  it('tells each person what concerns them, from what happened, and keeps what they have read', async () => {
    const partnerPerson = samplePartner({ fullName: 'Pim Partner' });
    const partnerId = (await call('POST', '/api/partners/register', '', partnerPerson)).json()._id as string;
    await call('PUT', `/api/admin/registration/${partnerId}/status`, portal.adminToken, { status: 'approved' });
    const partner = (
      await call('POST', '/api/login', '', { username: partnerPerson.username, password: partnerPerson.password })
    ).json().partner.token as string;
    const member = await approvedMember('Mew Member');

    const course = (
      await call('POST', '/api/admin/createcourse', partner, {
        courseTopic: 'Pottery',
        courseDescription: 'Clay',
        maxPeople: 0,
        status: 'public',
      })
    ).json()._id as string;
    await call('POST', `/api/courses/${course}/enroll`, member.token, {});
    await call('PUT', `/api/admin/updatecourses/${course}`, portal.adminToken, {
      courseTopic: 'Pottery for beginners',
      courseDescription: 'Clay and wheel',
    });
    const round = (
      await call('POST', `/api/admin/courses/${course}/rounds`, partner, {
        roundStartTime: iso(30 * minute),
        roundEndTime: iso(90 * minute),
      })
    ).json().round._id as string;

    const mine = await list(member.token);
    expect(kinds(mine)).toEqual([
      'course_updated:roundAdded',
      'course_updated:details',
      'registration_approved',
      'round_starting',
    ]);
    expect(mine.counts).toEqual({ all: 4, unread: 4, system: 1, course: 3 });
    expect(mine.notifications[0]).toMatchObject({ courseId: course, courseTopic: 'Pottery for beginners' });
    expect(mine.notifications[3]).toMatchObject({ _id: `round-${round}`, startsAt: expect.any(String) });

    // The partner hears of the member's enrolment and the admin's edit, not of their own doings.
    const partners = await list(partner);
    expect(kinds(partners)).toEqual([
      'course_updated:details',
      'new_enrollment',
      'registration_approved',
      'round_starting',
    ]);
    expect(partners.notifications[1]).toMatchObject({ subjectId: member.id, subjectName: 'Mew Member' });
    const admins = await list(portal.adminToken);
    expect(kinds(admins)).toEqual([
      'course_updated:roundAdded',
      'new_enrollment',
      'course_created',
      'new_registration',
      'new_registration',
    ]);
    expect(admins.notifications.map((n: { subjectName: string | null }) => n.subjectName).slice(3)).toEqual([
      'Mew Member',
      'Pim Partner',
    ]);

    // Tabs.
    expect(kinds(await list(member.token, 'filter=system'))).toEqual(['registration_approved']);
    expect((await list(member.token, 'filter=course')).total).toBe(3);

    // Read one, then all; what comes later is unread again.
    const first = mine.notifications[0]._id as string;
    expect((await call('POST', '/api/notifications/read', member.token, { ids: [first] })).statusCode).toBe(200);
    const afterOne = await list(member.token, 'filter=unread');
    expect(afterOne.counts.unread).toBe(3);
    expect(afterOne.notifications.map((n: { _id: string }) => n._id)).not.toContain(first);
    expect((await list(member.token)).notifications[0]).toMatchObject({ _id: first, isRead: true });
    expect((await call('POST', '/api/notifications/read-all', member.token, {})).statusCode).toBe(200);
    expect((await list(member.token)).counts.unread).toBe(0);
    expect((await list(partner)).counts.unread).toBe(4); // one's reading is one's own

    await call('DELETE', `/api/admin/deletecourse/${course}`, partner);
    const later = await list(member.token, 'filter=unread');
    expect(kinds(later)).toEqual(['course_deleted']);
    expect(later.notifications[0]).toMatchObject({ courseTopic: 'Pottery for beginners' });
  });

  it('refuses strangers and bad input, and appends nothing for it', async () => {
    expect((await call('GET', '/api/notifications', '')).statusCode).toBe(401);
    expect((await call('POST', '/api/notifications/read-all', '', {})).statusCode).toBe(401);
    const badFilter = await call('GET', '/api/notifications?filter=everything', portal.adminToken);
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors).toEqual({ filter: 'The filter must be all, unread, system or course.' });
    const before = (await portal.store.readAll(START, 100_000)).length;
    const empty = await call('POST', '/api/notifications/read', portal.adminToken, { ids: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ ids: 'Please give from 1 to 100 notification ids.' });
    expect((await portal.store.readAll(START, 100_000)).length).toBe(before);
  });
});
