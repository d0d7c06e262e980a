import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { testDatabases } from '@portal/platform/testing/databases';
import {
  ADMIN,
  type Harness,
  TEST_ATTENDANCE,
  callerOf,
  eventCount,
  loginAs,
  member,
  profileOf,
  serveCommandApi,
  startCommandApi,
} from './harness.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

describe.each(testDatabases())('scanning members into rounds on $name', (database) => {
  let h: Harness & { close(): Promise<void> };
  let admin: string;
  let owner: string;
  beforeAll(async () => {
    h = await startCommandApi(database);
    admin = (await loginAs(h.app, ADMIN.username, ADMIN.password)).token!;
    owner = partner('aaaaaaaaaaaaaaaaaaaaaa01');
  });
  afterAll(() => h.close());

  const call = (...args: Parameters<ReturnType<typeof callerOf>>) => callerOf(h.app)(...args);
  const partner = (sub: string) => h.app.jwt.sign({ sub, role: 'partner', username: sub, iatMs: Date.now() });

  async function registered(approve = true) {
    const person = member();
    const { _id } = (await h.app.inject({ method: 'POST', url: '/api/members/register', payload: person })).json();
    if (approve) await call('PUT', `/api/admin/registration/${_id}/status`, admin, { status: 'approved' });
    return { ...person, id: _id as string };
  }
  /** A course of `owner` with one round from `from` to `to` (ms from now). */
  async function courseWithRound(maxPeople = 0, from = -hour, to = hour) {
    const course = await call('POST', '/api/admin/createcourse', owner, {
      courseTopic: 'Muay Thai',
      courseDescription: 'Basics',
      maxPeople,
      status: 'public',
    });
    const courseId = course.json()._id as string;
    const round = await call('POST', `/api/admin/courses/${courseId}/rounds`, owner, {
      roundStartTime: iso(from),
      roundEndTime: iso(to),
    });
    return { courseId, roundId: round.json().round._id as string };
  }
  const scan = (roundId: string, body: object, token = owner, headers: object = {}) =>
    call('PUT', `/api/admin/updateround/${roundId}`, token, body, headers);

  it('accepts a member by pass, id or typed username, once, and says when the first scan was', async () => {
    const { roundId } = await courseWithRound();
    const [a, b, c] = [await registered(), await registered(), await registered()];
    const byPass = await scan(roundId, {
      userId: passKeysFor(TEST_ATTENDANCE.passSecret).issue(a.id).code,
      method: 'camera',
      deviceId: 'phone-1',
    });
    expect(byPass.statusCode).toBe(200);
    expect(byPass.json()).toMatchObject({
      success: true,
      message: 'Attendance recorded.',
      outcome: 'accepted',
      member: { _id: a.id, fullName: a.fullName },
      walkIn: true,
      late: true, // the round started an hour ago
    });
    expect((await scan(roundId, { userId: b.id })).json()).toMatchObject({ outcome: 'accepted', memberId: b.id });
    expect((await scan(roundId, { userId: c.username.toUpperCase(), method: 'barcode' })).statusCode).toBe(200);

    const again = await scan(roundId, { userId: a.id, method: 'typed' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      outcome: 'refused',
      reason: 'duplicate',
      message: 'Already scanned in this round.',
      firstScannedAt: byPass.json().scannedAt,
    });
    const events = await h.store.readStream(`attendance-${roundId}-${a.id}`);
    expect(events.map((event) => event.type)).toEqual(['AttendanceScanned', 'ScanRefused']);
    expect(events[0]!.data).toMatchObject({
      method: 'camera',
      deviceId: 'phone-1',
      scannerId: 'aaaaaaaaaaaaaaaaaaaaaa01',
    });
  });

  it('records every refusal with its reason: expired or forged passes, bare ids on camera, unknown, pending', async () => {
    const { roundId } = await courseWithRound();
    const person = await registered();
    const pending = await registered(false);
    const old = passKeysFor(TEST_ATTENDANCE.passSecret).issue(person.id, Date.now() - 5 * 60_000).code;
    const refused = async (body: object, status: number, reason: string) => {
      const answer = await scan(roundId, body);
      expect(answer.statusCode, JSON.stringify(answer.json())).toBe(status);
      expect(answer.json()).toMatchObject({ success: false, outcome: 'refused', reason });
      return answer.json();
    };
    await refused({ userId: old, method: 'camera' }, 409, 'codeExpired');
    await refused({ userId: old.replace(/.$/, old.endsWith('A') ? 'B' : 'A'), method: 'camera' }, 404, 'unknownMember');
    await refused({ userId: person.id, method: 'camera' }, 409, 'passRequired');
    await refused({ userId: 'nobody-like-this' }, 404, 'unknownMember');
    expect((await refused({ userId: pending.id }, 409, 'notApproved')).message).toBe(
      'This member’s account is not approved.',
    );
    const [row] = await h.db.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM es.events WHERE type = 'ScanRefused' AND data->>'roundId' = $1`,
      [roundId],
    );
    expect(Number(row!.count)).toBe(5);

    // Bad input is not an attempt: a field error, nothing appended.
    const before = await eventCount(h.db);
    const empty = await scan(roundId, { userId: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({
      userId: 'No User ID to scan. Please scan a QR code or enter manually.',
    });
    expect((await scan(roundId, { userId: person.id, deviceTime: 'yesterday' })).statusCode).toBe(400);
    expect(await eventCount(h.db)).toBe(before);
  });

  it("answers the member's name as it is now, when another process renamed or erased them in between", async () => {
    const { roundId } = await courseWithRound();
    const person = await registered();
    const memberToken = (await loginAs(h.app, person.username, person.password)).token!;
    // Another command API on the same database: its own store, its own remembered streams.
    const other = await serveCommandApi(h.db);
    try {
      const first = await scan(roundId, { userId: person.id });
      expect(first.json()).toMatchObject({
        outcome: 'accepted',
        member: { _id: person.id, fullName: person.fullName },
      });

      const renamed = await other.app.inject({
        method: 'PUT',
        url: `/api/members/profile/${person.id}`,
        headers: { authorization: `Bearer ${memberToken}` },
        payload: profileOf(person, { fullName: 'สมหญิง ชื่อใหม่' }),
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const again = await scan(roundId, { userId: person.id });
      expect(again.json()).toMatchObject({ reason: 'duplicate', member: { fullName: 'สมหญิง ชื่อใหม่' } });

      const erased = await other.app.inject({
        method: 'DELETE',
        url: `/api/admin/members/${person.id}/personal-data`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(erased.statusCode, erased.body).toBe(200);
      const after = await scan(roundId, { userId: person.id });
      expect(after.json()).toMatchObject({ outcome: 'refused', reason: 'unknownMember', member: null });
      expect(after.body).not.toContain('สมหญิง');
    } finally {
      await other.app.close();
    }
  });

  it('decides on members and courses as another process left them, not as this one last scanned them', async () => {
    // A scan of an enrolled member reads nothing when this process remembers the course and the
    // member: the append then checks they have not moved (withRemembered), and a refusal made
    // before any append is made again on what is read. Each change below, made by another
    // process, moves one; each scan after it records its one event.
    const a = await courseWithRound();
    const b = await courseWithRound(0, hour, 2 * hour);
    const [first, second, third] = [await registered(), await registered(), await registered()];
    for (const person of [first, second, third]) {
      expect((await scan(a.roundId, { userId: person.id })).json()).toMatchObject({
        outcome: 'accepted',
        walkIn: true,
      });
    }
    for (const person of [first, second]) {
      const token = (await loginAs(h.app, person.username, person.password)).token!;
      expect((await call('POST', `/api/courses/${b.courseId}/enroll`, token)).statusCode).toBe(200);
    }
    const scanOnce = async (roundId: string, userId: string, token = owner) => {
      const before = await eventCount(h.db);
      const answer = (await scan(roundId, { userId }, token)).json();
      expect(await eventCount(h.db)).toBe(before + 1);
      return answer;
    };
    expect(await scanOnce(b.roundId, second.id)).toMatchObject({ reason: 'roundNotActive' });
    expect(await scanOnce(b.roundId, first.id)).toMatchObject({ reason: 'roundNotActive' });
    const otherProcess = await serveCommandApi(h.db);
    const other = callerOf(otherProcess.app);
    try {
      const moved = await other('PUT', `/api/admin/courses/${b.courseId}/rounds/${b.roundId}`, owner, {
        roundStartTime: iso(-hour),
        roundEndTime: iso(hour),
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await scanOnce(b.roundId, second.id)).toMatchObject({ outcome: 'accepted', walkIn: false });

      const rejected = await other('PUT', `/api/admin/registration/${first.id}/status`, admin, { status: 'rejected' });
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(await scanOnce(b.roundId, first.id)).toMatchObject({ reason: 'notApproved' });

      const assistant = (await loginAs(h.app, second.username, second.password)).token!;
      expect((await scan(a.roundId, { userId: third.id }, assistant)).statusCode).toBe(403);
      const added = await other('POST', `/api/admin/courses/${a.courseId}/assistants`, owner, {
        username: second.username,
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(await scanOnce(a.roundId, third.id, assistant)).toMatchObject({ reason: 'duplicate' });
    } finally {
      await otherProcess.app.close();
    }
  });

  it('scans only while the round is open, only in courses the scanner manages', async () => {
    const later = await courseWithRound(0, hour, 2 * hour);
    const person = await registered();
    expect((await scan(later.roundId, { userId: person.id })).json()).toMatchObject({ reason: 'roundNotActive' });
    const { roundId } = await courseWithRound();
    expect((await scan(roundId, { userId: person.id }, partner('aaaaaaaaaaaaaaaaaaaaaa02'))).statusCode).toBe(403);
    const memberToken = (await loginAs(h.app, person.username, person.password)).token!;
    expect((await scan(roundId, { userId: person.id }, memberToken)).statusCode).toBe(403);
    expect((await scan('ffffffffffffffffffffffff', { userId: person.id })).statusCode).toBe(404);
    expect((await scan(roundId, { userId: person.id }, admin)).statusCode).toBe(200);
  });

  it('enrols walk-ins while there is room and refuses them when the course is full', async () => {
    const { courseId, roundId } = await courseWithRound(1);
    const [first, second] = [await registered(), await registered()];
    expect((await scan(roundId, { userId: first.id })).json()).toMatchObject({ outcome: 'accepted', walkIn: true });
    const full = await scan(roundId, { userId: second.id });
    expect(full.json()).toMatchObject({
      reason: 'courseFull',
      message: 'The course is full: this member is not enrolled and no place is left.',
    });
    const enrolments = (await h.store.readStream(`course-${courseId}`)).filter((e) => e.type === 'MemberEnrolled');
    expect(enrolments.map((e) => e.data)).toEqual([expect.objectContaining({ memberId: first.id, walkIn: true })]);
  });

  it('accepts exactly one of two scanners scanning the same member at the same instant', async () => {
    const { roundId } = await courseWithRound();
    const people = await Promise.all(Array.from({ length: 4 }, () => registered()));
    const answers = await Promise.all(
      people.flatMap((person) => [
        scan(roundId, { userId: person.id, deviceId: 'door-a' }),
        scan(roundId, { userId: person.id, deviceId: 'door-b' }, admin),
      ]),
    );
    for (let i = 0; i < people.length; i++) {
      const pair = [answers[2 * i]!.json(), answers[2 * i + 1]!.json()];
      expect(pair.map((answer) => answer.outcome).sort()).toEqual(['accepted', 'refused']);
      const accepted = pair.find((answer) => answer.outcome === 'accepted');
      expect(pair.find((answer) => answer.outcome === 'refused')).toMatchObject({
        reason: 'duplicate',
        firstScannedAt: accepted.scannedAt,
      });
    }
  });

  it('replays a queued scan once, keeping the time it was made, and lets an admin void a wrong scan', async () => {
    const { roundId } = await courseWithRound(0, -3 * hour, -hour); // ended an hour ago
    const person = await registered();
    const queued = { userId: person.id, method: 'camera' as const, deviceTime: iso(-2 * hour) };
    const code = passKeysFor(TEST_ATTENDANCE.passSecret).issue(person.id, Date.parse(queued.deviceTime)).code;
    // A pass shown while offline is checked against the time it was scanned.
    const body = { ...queued, userId: code };
    const first = await scan(roundId, body, owner, { 'idempotency-key': 'scan-1' });
    expect(first.json()).toMatchObject({ outcome: 'accepted', scannedAt: queued.deviceTime, lateUploaded: true });
    const replay = await scan(roundId, body, owner, { 'idempotency-key': 'scan-1' });
    expect(replay.json()).toMatchObject({ outcome: 'accepted', position: first.json().position });
    expect(await h.store.readStream(`attendance-${roundId}-${person.id}`)).toHaveLength(1);

    const url = `/api/admin/rounds/${roundId}/attendance/${person.id}/void`;
    expect((await call('POST', url, owner, { reason: 'wrong person' })).statusCode).toBe(403);
    expect((await call('POST', url, admin, { reason: '' })).json().errors).toEqual({
      reason: 'Please give a reason.',
    });
    expect((await call('POST', url, admin, { reason: 'wrong person' })).json()).toMatchObject({
      success: true,
      message: 'The scan was voided.',
    });
    expect((await call('POST', url, admin, { reason: 'again' })).statusCode).toBe(409);
  });
});
