import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { ADMIN, type Harness, callerOf, loginAs, member, startCommandApi } from './harness.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * Rushes with exact outcomes. Outsiders found 64 members racing for 10 places getting 8 places,
 * 16-20 % of a few members enrolling at once refused with "changed at the same time", 54 of 64
 * concurrent edits refused, and a scan meeting a conflict answered without an outcome. Every
 * caller now gets a real decision.
 */
describe.each(testDatabases())('rushes on $name', (database) => {
  let h: Harness & { close(): Promise<void> };
  let admin: string;
  const owner = 'aaaaaaaaaaaaaaaaaaaaaa01';
  beforeAll(async () => {
    h = await startCommandApi(database);
    admin = (await loginAs(h.app, ADMIN.username, ADMIN.password)).token!;
  });
  afterAll(() => h.close());

  const sign = (sub: string, role: 'partner' | 'member') =>
    h.app.jwt.sign({ sub, role, username: sub, iatMs: Date.now() });
  const call = (...args: Parameters<ReturnType<typeof callerOf>>) => callerOf(h.app)(...args);
  const members = (count: number, from: number) =>
    Array.from({ length: count }, (_, n) => sign(`bbbbbbbbbbbbbbbbbbbb${String(from + n).padStart(4, '0')}`, 'member'));
  async function createCourse(maxPeople: number) {
    const answer = await call('POST', '/api/admin/createcourse', sign(owner, 'partner'), {
      courseTopic: 'Rush hour',
      courseDescription: 'Everyone at once',
      maxPeople,
      status: 'public',
    });
    return answer.json()._id as string;
  }
  const streamTypes = async (streamId: string) => (await h.store.readStream(streamId)).map((event) => event.type);

  it('gives 64 members racing for 10 places exactly 10 places and tells 54 the course is full', async () => {
    const id = await createCourse(10);
    const answers = await Promise.all(
      members(64, 1000).map((token) => call('POST', `/api/courses/${id}/enroll`, token)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(54);
    expect(new Set(refused.map((answer) => `${answer.statusCode} ${answer.json().message}`))).toEqual(
      new Set(['409 This course is full.']),
    );
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'MemberEnrolled')).toHaveLength(10);
  });

  it('adds an assistant once when 64 add them at once: 64 answers of 201, one AssistantAdded', async () => {
    const id = await createCourse(0);
    const person = member({ fullName: 'Rush Assistant' });
    const { _id } = (await call('POST', '/api/members/register', '', person)).json();
    await call('PUT', `/api/admin/registration/${_id}/status`, admin, { status: 'approved' });
    const answers = await Promise.all(
      Array.from({ length: 64 }, () =>
        call('POST', `/api/admin/courses/${id}/assistants`, sign(owner, 'partner'), { username: person.username }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(64).fill(201));
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'AssistantAdded')).toHaveLength(1);
  });

  it('enrols all of 32 members enrolling in an unlimited course at once', async () => {
    const id = await createCourse(0);
    const answers = await Promise.all(
      members(32, 2000).map((token) => call('POST', `/api/courses/${id}/enroll`, token)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(32).fill(200));
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'MemberEnrolled')).toHaveLength(32);
  });

  it('applies all of 64 concurrent edits of one course', async () => {
    const id = await createCourse(0);
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, n) =>
        call('PUT', `/api/admin/updatecourses/${id}`, n % 2 ? admin : sign(owner, 'partner'), {
          courseTopic: `Edit ${n}`,
          courseDescription: `Edited ${n} times over`,
          maxPeople: n,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(64).fill(200));
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'CourseUpdated')).toHaveLength(64);
  });

  it('decides each of 64 scans of one member at once, and a replay of any key answers its own outcome', async () => {
    const id = await createCourse(0);
    const round = await call('POST', `/api/admin/courses/${id}/rounds`, sign(owner, 'partner'), {
      roundStartTime: iso(-hour),
      roundEndTime: iso(hour),
    });
    const roundId = round.json().round._id as string;
    const person = member();
    const { _id } = (await h.app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
    await call('PUT', `/api/admin/registration/${_id}/status`, admin, { status: 'approved' });
    const scanWith = (n: number) =>
      call(
        'PUT',
        `/api/admin/updateround/${roundId}`,
        sign(owner, 'partner'),
        { userId: _id, deviceId: `door-${n % 4}` },
        {
          'idempotency-key': `rush-scan-${roundId}-${n}`,
        },
      );
    const answers = await Promise.all(Array.from({ length: 64 }, (_, n) => scanWith(n)));
    const outcomes = answers.map((answer) => answer.json().outcome);
    expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(1);
    expect(answers.filter((answer) => answer.json().reason === 'duplicate')).toHaveLength(63);
    // The walk-in took one place in the course and one accepted scan is in the member's stream.
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'MemberEnrolled')).toHaveLength(1);
    expect(await streamTypes(`attendance-${roundId}-${_id}`)).toHaveLength(64);
    const replays = await Promise.all([0, 17, 63].map((n) => scanWith(n)));
    for (const [index, n] of [0, 17, 63].entries()) {
      expect(replays[index]!.json()).toMatchObject({
        outcome: answers[n]!.json().outcome,
        position: answers[n]!.json().position,
      });
    }
    expect(await streamTypes(`attendance-${roundId}-${_id}`)).toHaveLength(64);
  });
  it('decides 128 scans at once on streams the process remembers: each of 64 members once, and 64 of one of them as duplicates', async () => {
    const id = await createCourse(0);
    const roundAt = async (from: number, to: number) =>
      (
        await call('POST', `/api/admin/courses/${id}/rounds`, sign(owner, 'partner'), {
          roundStartTime: iso(from),
          roundEndTime: iso(to),
        })
      ).json().round._id as string;
    const ended = await roundAt(-3 * hour, -2 * hour);
    const open = await roundAt(-hour, hour);
    const ids: string[] = [];
    for (let n = 0; n < 64; n++) {
      const person = member();
      const { _id } = (await h.app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
      await call('PUT', `/api/admin/registration/${_id}/status`, admin, { status: 'approved' });
      expect((await call('POST', `/api/courses/${id}/enroll`, sign(_id, 'member'))).statusCode).toBe(200);
      ids.push(_id);
    }
    // A scan in the ended round reads the course and the member: the process then remembers both
    // as they are, so the rush below decides on what it remembers, without a read.
    for (const memberId of ids) {
      const refused = await call('PUT', `/api/admin/updateround/${ended}`, sign(owner, 'partner'), {
        userId: memberId,
      });
      expect(refused.json()).toMatchObject({ reason: 'roundNotActive' });
    }
    const scan = (memberId: string, n: number) =>
      call(
        'PUT',
        `/api/admin/updateround/${open}`,
        sign(owner, 'partner'),
        { userId: memberId, deviceId: `door-${n % 4}` },
        n % 2 ? { 'idempotency-key': `remembered-rush-${open}-${n}` } : {},
      );
    const answers = await Promise.all([...ids.map(scan), ...ids.map((_, n) => scan(ids[0]!, 64 + n))]);
    // Every one answered with its outcome: no conflict left to the caller, no server error.
    expect(answers.filter((answer) => answer.json().outcome === undefined)).toEqual([]);
    const accepted = answers.filter((answer) => answer.json().outcome === 'accepted');
    expect(accepted).toHaveLength(64);
    expect(new Set(accepted.map((answer) => answer.json().member._id))).toEqual(new Set(ids));
    expect(answers.filter((answer) => answer.json().reason === 'duplicate')).toHaveLength(64);
    expect(await streamTypes(`attendance-${open}-${ids[0]}`)).toHaveLength(65);
    for (const memberId of ids.slice(1)) {
      expect(await streamTypes(`attendance-${open}-${memberId}`)).toEqual(['AttendanceScanned']);
    }
    // Nobody was a walk-in: the course's stream gained nothing from the rush.
    expect((await streamTypes(`course-${id}`)).filter((type) => type === 'MemberEnrolled')).toHaveLength(64);
  });
});
