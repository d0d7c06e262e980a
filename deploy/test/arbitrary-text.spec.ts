// Over 250 lines: every text field of every write route, listed beside the hostile-text
// generator; the list is the point, and a new route's fields belong in it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { caughtUp } from '../src/testing/read-side.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
const RUNS = Number(process.env.ARBITRARY_TEXT_RUNS ?? 6);

/**
 * Text as attackers and unlucky users type it: any code point, any UTF-16 unit (lone surrogates
 * included), NUL and other controls, right-to-left overrides, Thai combining marks, emoji with
 * joiners, formula prefixes, line breaks of every kind, and 1 MB.
 */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\u200F\u202Eevil\u202C',
    'กิ่ก้ก๊ก๋ ำ',
    '👩🏽‍🍳🇹🇭',
    '=HYPERLINK("http://evil.example","x")',
    "+cmd|' /C calc'!A0",
    '\t\n\r\u0085\u2028\u2029',
    '\u007F\u009F',
  ),
  fc.constant('x'.repeat(1024 * 1024)),
);

type Caller = 'admin' | 'member' | 'anonymous';
interface Route {
  method: 'POST' | 'PUT';
  label: string;
  url: () => string;
  as: Caller;
  /** A valid body; each of `fields` is replaced in turn by hostile text. */
  body: () => Record<string, unknown>;
  fields: string[];
}

/**
 * Arbitrary strings through every text field of every write route (fast-check): each answer is
 * a 2xx or a 4xx, never a 5xx, and after each 2xx the read side is running, has caught up and has
 * set no read model aside: nothing a command accepts can stop a projection.
 */
describe.each(testDatabases())('arbitrary text in every field on $name', (database) => {
  let portal: TestPortal;
  let member: { id: string; token: string; person: ReturnType<typeof sampleMember> };
  let courseId: string;
  let roundId: string;
  let futureRoundId: string;
  const { call, approvedMember, courseWithRounds } = portalCalls(() => portal);
  beforeAll(async () => {
    portal = await openTestPortal(database);
    member = await approvedMember('Arbitrary Text');
    const course = await courseWithRounds(portal.adminToken, [
      [-hour, hour],
      [100 * hour, 101 * hour],
    ]);
    [courseId, roundId, futureRoundId] = [course.id, course.rounds[0]!, course.rounds[1]!];
  });
  afterAll(() => portal.close());

  const { password: _p, acceptTerms: _a, ...memberFields } = sampleMember();
  const routes: Route[] = [
    {
      method: 'POST',
      label: '/api/login',
      url: () => '/api/login',
      as: 'anonymous',
      body: () => ({ username: 'nobody01', password: 'password-123' }),
      fields: ['username', 'password'],
    },
    {
      method: 'POST',
      label: '/api/members/register',
      url: () => '/api/members/register',
      as: 'anonymous',
      body: () => sampleMember(),
      fields: [...Object.keys(memberFields), 'password'],
    },
    {
      method: 'POST',
      label: '/api/partners/register',
      url: () => '/api/partners/register',
      as: 'anonymous',
      body: () => samplePartner(),
      fields: Object.keys(samplePartner()).filter(
        (field) => typeof samplePartner()[field as keyof ReturnType<typeof samplePartner>] === 'string',
      ),
    },
    {
      method: 'POST',
      label: '/api/admin/members',
      url: () => '/api/admin/members',
      as: 'admin',
      body: () => {
        const { acceptTerms: _, ...rest } = sampleMember();
        return rest;
      },
      fields: ['username', 'fullName', 'personalAddress', 'personalProvince'],
    },
    {
      method: 'PUT',
      label: '/api/members/profile/{id}',
      url: () => `/api/members/profile/${member.id}`,
      as: 'member',
      body: () => ({
        title: 'นาย',
        fullName: 'Arbitrary Text',
        personalPhone: member.person.personalPhone,
        personalEmail: member.person.personalEmail,
        personalAddress: '1 Road',
        personalProvince: 'กรุงเทพมหานคร',
        personalDistrict: 'วัฒนา',
        personalSubdistrict: 'คลองเตยเหนือ',
        personalPostalCode: '10110',
      }),
      fields: [
        'title',
        'fullName',
        'personalPhone',
        'personalEmail',
        'personalAddress',
        'personalProvince',
        'personalDistrict',
        'personalSubdistrict',
        'personalPostalCode',
        'profile_img',
      ],
    },
    {
      method: 'PUT',
      label: '/api/members/change-password/{id}',
      url: () => `/api/members/change-password/${member.id}`,
      as: 'member',
      body: () => ({
        currentPassword: 'wrong-password-1',
        newPassword: 'new-password-1',
        confirmNewPassword: 'new-password-1',
      }),
      fields: ['currentPassword', 'newPassword', 'confirmNewPassword'],
    },
    {
      method: 'POST',
      label: '/api/admin/createcourse',
      url: () => '/api/admin/createcourse',
      as: 'admin',
      body: () => ({ courseTopic: 'Topic', courseDescription: 'Description', maxPeople: 0, status: 'public' }),
      fields: ['courseTopic', 'courseDescription', 'status', 'maxPeople'],
    },
    {
      method: 'PUT',
      label: '/api/admin/updatecourses/{id}',
      url: () => `/api/admin/updatecourses/${courseId}`,
      as: 'admin',
      body: () => ({ courseTopic: 'Topic', courseDescription: 'Description' }),
      fields: ['courseTopic', 'courseDescription'],
    },
    {
      method: 'PUT',
      label: '/api/admin/course/{id}/status',
      url: () => `/api/admin/course/${courseId}/status`,
      as: 'admin',
      body: () => ({ status: 'public' }),
      fields: ['status'],
    },
    {
      method: 'PUT',
      label: '/api/admin/courses/{id}/rounds/{id}',
      url: () => `/api/admin/courses/${courseId}/rounds/${futureRoundId}`,
      as: 'admin',
      body: () => ({ roundStartTime: iso(100 * hour), roundEndTime: iso(101 * hour) }),
      fields: ['roundStartTime', 'roundEndTime'],
    },
    {
      method: 'PUT',
      label: '/api/admin/updateround/{id}',
      url: () => `/api/admin/updateround/${roundId}`,
      as: 'admin',
      body: () => ({ userId: member.id, method: 'typed', deviceId: 'door' }),
      fields: ['userId', 'method', 'deviceId', 'deviceTime', 'offlineDecision'],
    },
    {
      method: 'POST',
      label: '/api/admin/rounds/{id}/attendance/{id}/void',
      url: () => `/api/admin/rounds/${roundId}/attendance/${member.id}/void`,
      as: 'admin',
      body: () => ({ reason: 'a reason' }),
      fields: ['reason'],
    },
    {
      method: 'POST',
      label: '/api/admin/courses/{id}/assistants',
      url: () => `/api/admin/courses/${courseId}/assistants`,
      as: 'admin',
      body: () => ({ username: member.person.username }),
      fields: ['username'],
    },
    {
      method: 'POST',
      label: '/api/contact',
      url: () => '/api/contact',
      as: 'anonymous',
      body: () => ({ name: 'Visitor', email: 'v@example.com', subject: 'Hi', message: 'a message long enough' }),
      fields: ['name', 'email', 'subject', 'message'],
    },
    {
      method: 'POST',
      label: '/api/emails',
      url: () => '/api/emails',
      as: 'admin',
      body: () => ({ to: 'to@example.com', subject: 'Hi', message: 'Hello' }),
      fields: ['to', 'subject', 'message'],
    },
    {
      method: 'POST',
      label: '/api/notifications/read',
      url: () => '/api/notifications/read',
      as: 'member',
      body: () => ({ ids: ['x'] }),
      fields: ['ids.0'],
    },
    {
      method: 'PUT',
      label: '/api/admin/registration/{id}/status',
      url: () => `/api/admin/registration/${member.id}/status`,
      as: 'admin',
      body: () => ({ status: 'approved' }),
      fields: ['status'],
    },
  ];
  const tokenOf = (as: Caller) => (as === 'admin' ? portal.adminToken : as === 'member' ? member.token : '');
  const withText = (body: Record<string, unknown>, field: string, text: string) => {
    const [name, index] = field.split('.');
    return { ...body, [name!]: index === undefined ? text : [text] };
  };

  it.each(routes.map((route) => ({ ...route, name: `${route.method} ${route.label}` })))(
    '$name: every field, any text, never a 5xx and never a stopped read model',
    async (route) => {
      for (const field of route.fields) {
        await fc.assert(
          fc.asyncProperty(hostileText, async (text) => {
            const answer = await call(
              route.method,
              route.url(),
              tokenOf(route.as),
              withText(route.body(), field, text),
            );
            expect(
              answer.statusCode,
              `${field}: ${JSON.stringify(text.slice(0, 40))} -> ${answer.body.slice(0, 200)}`,
            ).toBeLessThan(500);
            if (answer.statusCode < 300) {
              expect(await caughtUp(portal)).toMatchObject({ running: true, behind: 0, failing: [] });
            }
          }),
          { numRuns: RUNS },
        );
      }
    },
    120_000,
  );
});
