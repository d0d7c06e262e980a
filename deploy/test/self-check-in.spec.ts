import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemberApproved, accountStream } from '@portal/contracts/accounts/account.events';
import { roomCodeAt } from '@portal/platform/attendance/room-code';
import { memberRegisteredEvent, samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const minute = 60_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();
const PASS_SECRET = 'self-check-in-test-pass-secret';
const attendance = { passSecret: PASS_SECRET, opensEarlyMinutes: 0, closesLateMinutes: 0, lateAfterMinutes: 15 };
const shop = { latitude: 13.7307, longitude: 100.5418 };
const nearShop = { latitude: 13.7311, longitude: 100.5418 }; // 44 m north
const victoryMonument = { latitude: 13.7649, longitude: 100.5383 };

describe.each(testDatabases())('members checking themselves in on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database, { attendance });
  });
  afterAll(() => portal.close());
  const { call, approvedMember, enrolledSince } = portalCalls(() => portal);

  async function approvedPartner() {
    const person = samplePartner();
    const id = (await call('POST', '/api/partners/register', '', person)).json()._id as string;
    await call('PUT', `/api/admin/registration/${id}/status`, portal.adminToken, { status: 'approved' });
    const signIn = await call('POST', '/api/login', '', { username: person.username, password: person.password });
    return { id, token: signIn.json().partner.token as string };
  }
  async function courseWithRound(token: string, options: { status?: string; maxPeople?: number; from?: number } = {}) {
    const course = (
      await call('POST', '/api/admin/createcourse', token, {
        courseTopic: 'Yoga',
        courseDescription: 'Morning yoga',
        maxPeople: options.maxPeople ?? 0,
        status: options.status ?? 'public',
      })
    ).json()._id as string;
    const from = options.from ?? -minute;
    const round = (
      await call('POST', `/api/admin/courses/${course}/rounds`, token, {
        roundStartTime: at(from),
        roundEndTime: at(from + 60 * minute),
      })
    ).json().round._id as string;
    return { course, round };
  }
  const roomCode = async (round: string, token: string) => call('GET', `/api/admin/rounds/${round}/room-code`, token);
  const checkIn = (round: string, token: string, body: object) =>
    call('POST', `/api/rounds/${round}/self-check-in`, token, body);

  it('checks an enrolled member in on the current code, once, and shows it to the partner as a self check-in', async () => {
    const partner = await approvedPartner();
    const member = await approvedMember('Self Member');
    const { course, round } = await courseWithRound(partner.token, { from: -20 * minute });
    await call('POST', `/api/courses/${course}/enroll`, member.token, {});

    // Only who may scan in the round gets its code.
    const shown = await roomCode(round, partner.token);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ code: expect.any(String), rotatesEveryMs: 15_000, needsLocation: false });
    expect(shown.headers['cache-control']).toBe('no-store');
    expect((await roomCode(round, member.token)).statusCode).toBe(403);

    const { code } = shown.json();
    const first = await checkIn(round, member.token, { code, deviceId: 'phone-of-self-member' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'You are checked in.',
      outcome: 'accepted',
      memberId: member.id,
      late: true,
      walkIn: false,
      member: { _id: member.id, fullName: 'Self Member' },
    });
    const again = await checkIn(round, member.token, { code, deviceId: 'phone-of-self-member' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'duplicate', message: 'Already scanned in this round.' });

    // The round page's roster and the audit show it, by the member, from their phone.
    const details = (await call('GET', `/api/admin/rounds/${round}`, partner.token)).json().round;
    expect(details.attended).toBe(1);
    const audit = (await call('GET', `/api/admin/audit/scans?roundId=${round}`, portal.adminToken)).json();
    const methods = audit.attempts.map((a: { method: string; outcome: string; deviceId: string }) => [
      a.outcome,
      a.method,
      a.deviceId,
    ]);
    expect(methods).toEqual(
      expect.arrayContaining([
        ['accepted', 'self', 'phone-of-self-member'],
        ['refused', 'self', 'phone-of-self-member'],
      ]),
    );
  });

  it('refuses, and records, an old code, a missing or far position, a shared device and a private course', async () => {
    const partner = await approvedPartner();
    const [near, far, unplaced, friend] = [
      await approvedMember('Near Member'),
      await approvedMember('Far Member'),
      await approvedMember('Unplaced Member'),
      await approvedMember('Friend Member'),
    ];
    const { course, round } = await courseWithRound(partner.token);
    const configured = await call('PUT', `/api/admin/courses/${course}/self-check-in`, partner.token, {
      location: { ...shop, radiusMetres: 100 },
      onePerDevice: true,
    });
    expect(configured.json()).toMatchObject({ success: true, message: 'Self check-in settings saved.' });
    expect((await call('GET', `/api/admin/courses/${course}`, partner.token)).json().course.selfCheckIn).toEqual({
      location: { ...shop, radiusMetres: 100 },
      onePerDevice: true,
    });
    const { code, needsLocation } = (await roomCode(round, partner.token)).json();
    expect(needsLocation).toBe(true);
    const reasonOf = async (token: string, body: object) => {
      const answer = await checkIn(round, token, body);
      return answer.statusCode === 200 ? 'accepted' : `${answer.statusCode} ${answer.json().reason}`;
    };

    // A screenshot sent home: the code of 30 s ago is no longer taken.
    const stale = roomCodeAt(PASS_SECRET, round, Date.now() - 30_000).code;
    expect(await reasonOf(near.token, { code: stale, deviceId: 'phone-near', position: nearShop })).toBe(
      '409 roomCodeExpired',
    );
    expect(await reasonOf(unplaced.token, { code, deviceId: 'phone-unplaced' })).toBe('409 locationRequired');
    expect(await reasonOf(far.token, { code, deviceId: 'phone-far', position: victoryMonument })).toBe('409 tooFar');
    // A walk-in (not enrolled, public course) near the shop is in.
    const walkIn = await checkIn(round, near.token, { code, deviceId: 'phone-near', position: nearShop });
    expect(walkIn.json()).toMatchObject({ outcome: 'accepted', walkIn: true, late: false });
    // Checking a friend in from the same phone.
    expect(await reasonOf(friend.token, { code, deviceId: 'phone-near', position: nearShop })).toBe('409 deviceUsed');
    expect(
      (await checkIn(round, friend.token, { code, deviceId: 'phone-friend', position: nearShop })).statusCode,
    ).toBe(200);

    // Every refusal is in the audit with its reason, and the distance (never the position).
    const audit = (await call('GET', `/api/admin/audit/scans?roundId=${round}&pageSize=50`, portal.adminToken)).json();
    const refusals = audit.attempts
      .filter((a: { outcome: string }) => a.outcome === 'refused')
      .map((a: { reason: string }) => a.reason)
      .sort();
    expect(refusals).toEqual(['deviceUsed', 'locationRequired', 'roomCodeExpired', 'tooFar']);
    // 0.0342° north (3,803 m) and 0.0035° west (378 m at this latitude): 3,822 m.
    const events = await portal.store.readStream(`attendance-${round}-${far.id}`);
    expect(events[0]!.data).toMatchObject({ method: 'self', reason: 'tooFar', distanceMetres: 3_822 });
    expect(JSON.stringify(events[0]!.data)).not.toContain('13.7649');

    // A private course takes only who is enrolled.
    const closed = await courseWithRound(partner.token, { status: 'private' });
    const closedCode = (await roomCode(closed.round, partner.token)).json().code;
    const answer = await checkIn(closed.round, near.token, { code: closedCode, deviceId: 'phone-near' });
    expect(answer.json()).toMatchObject({
      reason: 'notEnrolled',
      message: 'You are not enrolled in this private course.',
    });
    // On one member per device, that refusal does not take the phone: an enrolled member checks in on it.
    const onePhone = { location: null, onePerDevice: true };
    await call('PUT', `/api/admin/courses/${closed.course}/self-check-in`, partner.token, onePhone);
    const stranger = await approvedMember('Closed Stranger');
    const insider = await approvedMember('Closed Insider');
    await enrolledSince(closed.course, insider.id, new Date(Date.now() - minute).toISOString());
    const shared = { code: closedCode, deviceId: 'phone-shared' };
    expect((await checkIn(closed.round, stranger.token, shared)).json().reason).toBe('notEnrolled');
    expect((await checkIn(closed.round, insider.token, shared)).json().outcome).toBe('accepted');
    // A round that has not started is not open.
    const later = await courseWithRound(partner.token, { from: 60 * minute });
    const laterCode = (await roomCode(later.round, partner.token)).json().code;
    expect((await checkIn(later.round, near.token, { code: laterCode, deviceId: 'phone-near' })).json().reason).toBe(
      'roundNotActive',
    );
  });

  it('lets only members check in, and refuses bad input field by field in the caller’s language', async () => {
    const partner = await approvedPartner();
    const member = await approvedMember('Input Member');
    const { round } = await courseWithRound(partner.token);
    expect((await checkIn(round, partner.token, { code: 'x', deviceId: 'phone-partner' })).statusCode).toBe(403);
    expect((await portal.app.inject({ method: 'POST', url: `/api/rounds/${round}/self-check-in` })).statusCode).toBe(
      401,
    );
    const noDevice = await checkIn(round, member.token, { code: 'abc' });
    expect(noDevice.statusCode).toBe(400);
    expect(noDevice.json().errors.deviceId).toBe('This device has no id: open the page again.');
    const inThai = (payload: object) =>
      portal.app.inject({
        method: 'POST',
        url: `/api/rounds/${round}/self-check-in`,
        headers: { authorization: `Bearer ${member.token}`, 'accept-language': 'th' },
        payload,
      });
    const farNorth = await inThai({ code: 'abc', deviceId: 'phone-input', position: { latitude: 91, longitude: 0 } });
    expect(farNorth.statusCode).toBe(400);
    expect(farNorth.json().errors).toEqual({ 'position.latitude': 'ละติจูดต้องอยู่ระหว่าง -90 ถึง 90' });
    const nul = await inThai({ code: 'a\u0000b', deviceId: 'phone-input' });
    expect(nul.statusCode).toBe(400);
    expect(Object.keys(nul.json().errors)).toEqual(['code']);
    const unknownRound = await checkIn('0123456789abcdef01234567', member.token, {
      code: 'x',
      deviceId: 'phone-input',
    });
    expect(unknownRound.statusCode).toBe(404);
    const badRadius = await call('PUT', `/api/admin/courses/0123456789abcdef01234567/self-check-in`, partner.token, {
      location: { ...shop, radiusMetres: 5 },
      onePerDevice: false,
    });
    expect(badRadius.statusCode).toBe(400);
    expect(badRadius.json().errors['location.radiusMetres']).toBe(
      'The radius must be a whole number of metres from 10 to 5000.',
    );
  });

  it('records 64 identical settings sent at once as one change, and answers each', async () => {
    const partner = await approvedPartner();
    const { course } = await courseWithRound(partner.token);
    const rules = { location: { ...shop, radiusMetres: 120 }, onePerDevice: true };
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => call('PUT', `/api/admin/courses/${course}/self-check-in`, partner.token, rules)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(64).fill(200));
    const changes = (await portal.store.readStream(`course-${course}`)).filter(
      (event) => event.type === 'SelfCheckInConfigured',
    );
    expect(changes).toHaveLength(1);
  });

  it('lets exactly one of 64 members on one phone in at once, and tells 63 the device is used', async () => {
    const partner = await approvedPartner();
    const { course, round } = await courseWithRound(partner.token);
    await call('PUT', `/api/admin/courses/${course}/self-check-in`, partner.token, {
      location: null,
      onePerDevice: true,
    });
    const ids = Array.from({ length: 64 }, (_, n) => `dddddddddddddddddddd${String(n).padStart(4, '0')}`);
    for (const id of ids) {
      await portal.store.append(
        accountStream(id),
        [await memberRegisteredEvent(portal.db, id), MemberApproved.create({ approvedAt: at(0) })],
        { expectedRevision: 'no_stream' },
      );
    }
    const { code } = (await roomCode(round, partner.token)).json();
    const tokenOf = (id: string) => portal.app.jwt.sign({ sub: id, role: 'member', username: id, iatMs: Date.now() });
    const answers = await Promise.all(
      ids.map((id) => checkIn(round, tokenOf(id), { code, deviceId: 'the-one-phone' })),
    );
    const outcomes = answers.map((answer) => answer.json().reason ?? answer.json().outcome);
    expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'deviceUsed')).toHaveLength(63);
    const details = (await call('GET', `/api/admin/rounds/${round}`, partner.token)).json().round;
    expect(details.attended).toBe(1);
  });
});
