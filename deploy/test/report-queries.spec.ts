import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { sampleMember } from '@portal/platform/testing/accounts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { caughtUp } from '../src/testing/read-side.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();
const directions = ['asc', 'desc'] as const;
const ordered = <T>(ascending: T[], order: 'asc' | 'desc') => (order === 'asc' ? ascending : [...ascending].reverse());

/**
 * Every sort field in both directions, every filter and every permission of the two reports'
 * queries (the attendance overview's course list and the registration report), on a fresh
 * portal whose data is chosen so that each order differs from the others.
 */
describe.each(testDatabases())('report queries on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember, enrolledSince } = portalCalls(() => portal);

  it('sorts the course list by each field both ways, and keeps it to admins and partners', async () => {
    const [m1, m2, m3] = [
      await approvedMember('Member One'),
      await approvedMember('Member Two'),
      await approvedMember('Member Three'),
    ];
    const create = async (topic: string, rounds: number) => {
      const id = (
        await call('POST', '/api/admin/createcourse', partner(), {
          courseTopic: topic,
          courseDescription: 'sorted',
          maxPeople: 0,
          status: 'public',
        })
      ).json()._id as string;
      const roundIds: string[] = [];
      for (let n = 0; n < rounds; n++) {
        const start = -(10 - 2 * n) * hour;
        roundIds.push(
          (
            await call('POST', `/api/admin/courses/${id}/rounds`, partner(), {
              roundStartTime: iso(start),
              roundEndTime: iso(start + hour),
            })
          ).json().round._id,
        );
      }
      return { id, rounds: roundIds, starts: roundIds.map((_, n) => -(10 - 2 * n) * hour) };
    };
    const scan = (round: string, start: number, member: string) =>
      call('PUT', `/api/admin/updateround/${round}`, partner(), {
        userId: member,
        deviceTime: iso(start + 0.25 * hour),
      });
    // c1: two scanned (walking in), one enrolled the day before and missing. c2: two enrolled the day
    // before, nobody came. c3: one member walking in to three rounds.
    const c1 = await create('b-course', 1);
    const c2 = await create('A-course', 1);
    const c3 = await create('c-course', 3);
    await enrolledSince(c1.id, m3.id, iso(-24 * hour));
    await scan(c1.rounds[0]!, c1.starts[0]!, m1.id);
    await scan(c1.rounds[0]!, c1.starts[0]!, m2.id);
    await enrolledSince(c2.id, m1.id, iso(-24 * hour));
    await enrolledSince(c2.id, m2.id, iso(-24 * hour));
    for (const [index, round] of c3.rounds.entries()) await scan(round, c3.starts[index]!, m1.id);

    const counts = (await call('GET', '/api/admin/courses?sort=createdAt&order=asc&page=1', partner())).json().courses;
    expect(
      counts.map((c: { participate: number; totalAttend: number; totalAbsent: number }) => [
        c.participate,
        c.totalAttend,
        c.totalAbsent,
      ]),
    ).toEqual([
      [2, 2, 1],
      [0, 0, 2],
      [1, 3, 0],
    ]);
    const ascending = {
      createdAt: [c1, c2, c3],
      topic: [c2, c1, c3],
      participants: [c2, c3, c1],
      totalAttend: [c2, c1, c3],
      totalAbsent: [c3, c1, c2],
    };
    for (const [sort, courses] of Object.entries(ascending)) {
      for (const order of directions) {
        const answer = (await call('GET', `/api/admin/courses?sort=${sort}&order=${order}&page=1`, partner())).json();
        expect(
          answer.courses.map((c: { _id: string }) => c._id),
          `${sort} ${order}`,
        ).toEqual(ordered(courses, order).map((c) => c.id));
      }
    }
    // Search over topic and description, in any case; pages of the asked size.
    const search = (await call('GET', '/api/admin/courses?search=A-COURSE&page=1', partner())).json();
    expect(search.courses.map((c: { _id: string }) => c._id)).toEqual([c2.id]);
    const paged = (await call('GET', '/api/admin/courses?sort=topic&order=asc&page=2&pageSize=2', partner())).json();
    expect(paged).toMatchObject({ total: 3, page: 2, pages: 2 });
    expect(paged.courses.map((c: { _id: string }) => c._id)).toEqual([c3.id]);

    expect((await call('GET', '/api/admin/courses', portal.adminToken)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/courses', m1.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/courses', '')).statusCode).toBe(401);
    expect((await call('GET', `/api/admin/courses/${c1.id}/participants`, m1.token)).statusCode).toBe(403);
  });

  it('sorts, filters and searches the registration report by each field, for admins only', async () => {
    const alpha = await approvedMember('alpha Registrant');
    const bravo = await approvedMember('Bravo Registrant', { title: 'นางสาว', personalAddress: '99 Ratchadamri Road' });
    // Charlie registers and waits: the admin has not decided yet.
    const charlie = {
      id: (await call('POST', '/api/members/register', '', sampleMember({ fullName: 'Charlie Registrant' }))).json()
        ._id as string,
    };
    await call('PUT', `/api/admin/registration/${bravo.id}/status`, portal.adminToken, { status: 'rejected' });
    const report = async (query: string) =>
      (await call('GET', `/api/admin/registration?search=registrant&page=1&${query}`, portal.adminToken)).json();
    const people = [alpha, bravo, charlie];
    const ascending = {
      id: [...people].sort((a, b) => (a.id < b.id ? -1 : 1)),
      name: [alpha, bravo, charlie],
      registrationDate: [alpha, bravo, charlie],
      status: [alpha, charlie, bravo], // approved, pending, rejected
    };
    for (const [sort, members] of Object.entries(ascending)) {
      for (const order of directions) {
        const answer = await report(`sort=${sort}&order=${order}`);
        expect(
          answer.members.map((m: { _id: string }) => m._id),
          `${sort} ${order}`,
        ).toEqual(ordered(members, order).map((m) => m.id));
      }
    }
    expect((await report('')).members.map((m: { _id: string }) => m._id)).toEqual([charlie.id, bravo.id, alpha.id]);
    for (const [status, member] of [
      ['approved', alpha],
      ['pending', charlie],
      ['rejected', bravo],
    ] as const) {
      const answer = await report(`status=${status}`);
      expect(
        answer.members.map((m: { _id: string }) => m._id),
        status,
      ).toEqual([member.id]);
    }
    // Each searched field finds the one person it belongs to.
    const { person } = bravo;
    for (const term of [
      bravo.id,
      'BRAVO',
      person.personalEmail,
      person.personalPhone,
      person.personalId,
      person.username,
      '99 ratchadamri',
      'นางสาว',
    ]) {
      const answer = (
        await call('GET', `/api/admin/registration?search=${encodeURIComponent(term)}&page=1`, portal.adminToken)
      ).json();
      expect(
        answer.members.map((m: { _id: string }) => m._id),
        term,
      ).toEqual([bravo.id]);
    }

    // Fragments shorter than the search index's pieces, wildcards taken literally, hostile text: an answer, never a fault.
    for (const [term, expected] of [
      ['avo regis', [bravo.id]],
      ['%', []],
      ['_ravo', []],
      ['\u202Ebravo', []],
      ['บราโว่', []],
      ['x'.repeat(200), []],
    ] as const) {
      const answer = await call(
        'GET',
        `/api/admin/registration?search=${encodeURIComponent(term)}&page=1&sort=id&order=asc`,
        portal.adminToken,
      );
      expect(answer.statusCode, term).toBe(200);
      expect(
        answer.json().members.map((m: { _id: string }) => m._id),
        term,
      ).toEqual([...expected].sort());
    }
    // The pager's total: counted with a search (also past the last page), kept counts without.
    for (const [query, total, shown] of [
      ['search=registrant&page=1', 3, 3],
      ['search=registrant&page=2&pageSize=1', 3, 1],
      ['search=registrant&page=9&pageSize=1', 3, 0],
      ['search=registrant&status=pending&page=1', 1, 1],
    ] as const) {
      const answer = (await call('GET', `/api/admin/registration?${query}`, portal.adminToken)).json();
      expect([answer.total, answer.members.length], query).toEqual([total, shown]);
    }
    const everyone = (await call('GET', '/api/admin/registration', portal.adminToken)).json();
    for (const status of [undefined, 'approved', 'pending', 'rejected']) {
      const query = status ? `status=${status}&` : '';
      const answer = (await call('GET', `/api/admin/registration?${query}page=1`, portal.adminToken)).json();
      const listed = (everyone.members as { status: string }[]).filter((m) => !status || m.status === status);
      expect(answer.total, status).toBe(listed.length);
    }
    // Raw bytes no text can hold, in a fragment long enough for the index: a 4xx or an empty answer, never a 5xx.
    for (const raw of ['bra%00vo', '%ED%A0%80bravo', 'bravo%C0%AF', 'x'.repeat(201), 'a'.repeat(1024 * 1024)]) {
      const answer = await call('GET', `/api/admin/registration?search=${raw}&page=1`, portal.adminToken);
      expect(answer.statusCode, raw.slice(0, 20)).toBeLessThan(500);
      if (answer.statusCode === 200) expect(answer.json().members, raw.slice(0, 20)).toEqual([]);
    }
    const short = await call('GET', `/api/admin/registration?search=ra&pageSize=100`, portal.adminToken);
    expect(short.json().members.map((m: { _id: string }) => m._id)).toEqual(
      expect.arrayContaining([alpha.id, bravo.id, charlie.id]),
    );

    expect((await call('GET', '/api/admin/registration', partner())).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/registration', alpha.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/registration', '')).statusCode).toBe(401);
  });

  it('counts a rush of 64 registrations, then 20 approvals and 10 rejections at once, exactly', async () => {
    const totals = async () => {
      const total = async (query: string) =>
        (await call('GET', `/api/admin/registration?${query}page=1`, portal.adminToken)).json().total as number;
      return {
        pending: await total('status=pending&'),
        approved: await total('status=approved&'),
        rejected: await total('status=rejected&'),
        all: await total(''),
        rush: await total('search=rushing&'),
      };
    };
    const before = await totals();
    const registered = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        call('POST', '/api/members/register', '', sampleMember({ fullName: `Rushing ${i}` })),
      ),
    );
    expect(registered.map((answer) => answer.statusCode)).toEqual(Array(64).fill(201));
    const ids = registered.map((answer) => answer.json()._id as string);
    const decided = await Promise.all(
      ids.slice(0, 30).map((id, i) =>
        call('PUT', `/api/admin/registration/${id}/status`, portal.adminToken, {
          status: i < 20 ? 'approved' : 'rejected',
        }),
      ),
    );
    expect(decided.map((answer) => answer.statusCode)).toEqual(Array(30).fill(200));
    await caughtUp(portal);
    // By hand: 64 new, 20 of them approved and 10 rejected, so 34 still pending.
    expect(await totals()).toEqual({
      pending: before.pending + 34,
      approved: before.approved + 20,
      rejected: before.rejected + 10,
      all: before.all + 64,
      rush: before.rush + 64,
    });
    // And the kept counts are the rows counted.
    const kept = await portal.db.query(`SELECT role, status, n::int AS n FROM rm.account_counts ORDER BY role, status`);
    const counted = await portal.db.query(
      `SELECT role, status, count(*)::int AS n FROM rm.accounts_sealed GROUP BY role, status ORDER BY role, status`,
    );
    expect(kept).toEqual(counted);
  });

  it('answers a parameter it does not know with a 400 naming it, instead of quietly doing something else', async () => {
    for (const [url, errors] of [
      [
        '/api/admin/registration?page=0&sort=age&order=up&status=maybe&pageSize=500',
        {
          page: 'The page number is not valid.',
          pageSize: 'The page number is not valid.',
          sort: 'This sort field is not known.',
          order: 'The order must be asc or desc.',
          status: 'The status must be pending, approved or rejected.',
        },
      ],
      [
        '/api/admin/courses?page=x&sort=popularity',
        { page: 'The page number is not valid.', sort: 'This sort field is not known.' },
      ],
      [
        '/api/admin/audit/scans?outcome=lost&page=-1',
        { outcome: 'The outcome must be accepted, refused or voided.', page: 'The page number is not valid.' },
      ],
      ['/api/courses?page=0', { page: 'The page number is not valid.' }],
    ] as const) {
      const answer = await call('GET', url, portal.adminToken);
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json().errors, url).toEqual(errors);
    }
    expect((await call('GET', '/api/admin/registration/export.csv', partner())).statusCode).toBe(403);
  });
});
