// Over 250 lines: scans through the whole portal to the read models' counts, the round
// page and the live events, one story per database.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { exportedMoment, openCsv } from '../src/testing/csv.ts';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/** Attendance through the whole portal: scans, the read models' counts, the round page, live events. */
describe.each(testDatabases())('attendance through the portal on $name', (database) => {
  let portal: TestPortal;
  let app: FastifyInstance;
  beforeAll(async () => {
    portal = await openTestPortal(database);
    app = portal.app;
  });
  afterAll(() => portal.close());

  const { call, partner, approvedMember, enrolledSince, courseWithRounds } = portalCalls(() => portal);

  it('counts scans, absences after the round, voids, and shows the roster and the spec’s round shape', async () => {
    const {
      id: course,
      rounds: [now, ended],
    } = await courseWithRounds(
      partner(),
      [
        [-hour, hour],
        [-4 * hour, -3 * hour],
      ],
      'Knife skills',
    );
    const [ann, ben, cat] = [
      await approvedMember('Ann Attendee'),
      await approvedMember('Ben Absent'),
      await approvedMember('Cat Walkin'),
    ];
    // Ann and Ben enrolled before either round started, so both are expected in both.
    await enrolledSince(course, ann.id, iso(-5 * hour));
    await enrolledSince(course, ben.id, iso(-5 * hour));

    // Ann shows her pass; Cat is scanned in as a walk-in; Ben never comes.
    const pass = (await call('GET', '/api/members/me/pass', ann.token)).json();
    expect(pass.code).toMatch(new RegExp(`^P2\\.${ann.id}\\.\\d+\\.[\\w-]{86}$`));
    expect((await call('GET', '/api/members/me/pass', partner())).statusCode).toBe(403);
    expect(
      (await call('PUT', `/api/admin/updateround/${now}`, partner(), { userId: pass.code, method: 'camera' }))
        .statusCode,
    ).toBe(200);
    expect((await call('PUT', `/api/admin/updateround/${now}`, partner(), { userId: cat.id })).json()).toMatchObject({
      walkIn: true,
    });
    // A scan made in the ended round while offline, uploaded now.
    await call('PUT', `/api/admin/updateround/${ended}`, partner(), { userId: ann.id, deviceTime: iso(-3.5 * hour) });

    const round = (await call('GET', `/api/admin/rounds/${now}`, partner())).json().round;
    expect(round).toMatchObject({
      _id: now,
      courseId: course,
      roundNumber: 2,
      active: true,
      attended: 2,
      absent: 0,
      expected: 2, // Ann and Ben; Cat walked in during the round
      missing: 1,
    });
    expect(round.scanned.map((entry: { user: { fullName: string } }) => entry.user.fullName).sort()).toEqual([
      'Ann Attendee',
      'Cat Walkin',
    ]);
    expect(round.scanned[0]).toEqual(
      expect.objectContaining({ _id: expect.any(String), scannedAt: expect.any(String), user: expect.any(Object) }),
    );
    expect(round.roster.find((entry: { fullName: string }) => entry.fullName === 'Ben Absent')).toMatchObject({
      scannedAt: null,
      enrolled: true,
    });

    const details = (await call('GET', `/api/admin/courses/${course}`, partner())).json().course;
    expect(details).toMatchObject({ participate: 2, totalAttend: 3, totalAbsent: 1, enrolled: 3 });
    const endedRound = details.rounds.find((r: { _id: string }) => r._id === ended);
    // Ben was expected and missed it; Cat enrolled (walking in) hours after it: never absent there.
    expect(endedRound).toMatchObject({ attended: 1, absent: 1 });
    // Dee enrols now, after the round started: not expected there, yet enrolled, so a scanner
    // deciding offline must know her (accepted, not a walk-in request).
    const dee = await approvedMember('Dee Latecomer');
    await enrolledSince(course, dee.id, iso(0));
    const withDee = (await call('GET', `/api/admin/rounds/${now}`, partner())).json().round;
    expect(withDee).toMatchObject({ expected: 2, missing: 1 });
    expect(withDee.roster.find((entry: { _id: string }) => entry._id === dee.id)).toMatchObject({
      scannedAt: null,
      enrolled: false,
      enrolledNow: true,
    });
    expect(withDee.roster.find((entry: { _id: string }) => entry._id === ben.id)).toMatchObject({ enrolledNow: true });

    const beforeVoid = new Date().toISOString();
    // An admin voids Ann's scan in the ended round: she counts as absent there.
    await call('POST', `/api/admin/rounds/${ended}/attendance/${ann.id}/void`, portal.adminToken, {
      reason: 'scanned by mistake',
    });
    const after = (await call('GET', `/api/admin/courses/${course}`, partner())).json().course;
    expect(after).toMatchObject({ participate: 2, totalAttend: 2, totalAbsent: 2 });

    // The log agrees with the read models, and says how things stood before the void.
    const asOf = (at?: string) =>
      call(
        'GET',
        `/api/admin/courses/${course}/counts${at ? `?asOf=${encodeURIComponent(at)}` : ''}`,
        portal.adminToken,
      );
    expect((await asOf()).json().counts).toMatchObject({
      participate: after.participate,
      totalAttend: after.totalAttend,
      totalAbsent: after.totalAbsent,
      enrolled: after.enrolled,
    });
    expect((await asOf(beforeVoid)).json().counts).toMatchObject({ participate: 2, totalAttend: 3, totalAbsent: 1 });
    expect((await asOf('2020-01-01T00:00:00Z')).statusCode).toBe(404);
    const badMoment = await asOf('yesterday-ish');
    expect(badMoment.statusCode).toBe(400);
    expect(badMoment.json().errors).toEqual({ asOf: 'Please give a valid date and time.' });
    expect((await call('GET', `/api/admin/courses/${course}/counts`, partner())).statusCode).toBe(403);
    const history = (await call('GET', `/api/admin/members/${ann.id}/attendance`, portal.adminToken)).json().attendance;
    expect(history.map((entry: { roundId: string; voided: boolean }) => [entry.roundId, entry.voided])).toEqual([
      [now, false],
      [ended, true],
    ]);

    // The attendance overview: sorted by attended and by absent, and the participants of a course.
    const byAttend = (
      await call('GET', `/api/admin/courses?sort=totalAttend&order=desc&page=1&pageSize=10&search=knife`, partner())
    ).json();
    expect(byAttend.courses[0]).toMatchObject({ _id: course, totalAttend: 2 });
    const byAbsent = (
      await call('GET', `/api/admin/courses?sort=totalAbsent&order=desc&page=1&pageSize=10`, partner())
    ).json();
    expect(byAbsent.courses[0]).toMatchObject({ _id: course, totalAbsent: 2 });
    const participants = (await call('GET', `/api/admin/courses/${course}/participants`, partner())).json();
    expect(participants.participants.map((p: { fullName: string }) => p.fullName)).toEqual([
      'Ann Attendee',
      'Cat Walkin',
    ]);
    expect(participants.participants[0]).toMatchObject({
      email: ann.person.personalEmail.toLowerCase(),
      username: ann.person.username,
    });
    expect((await call('GET', `/api/admin/courses/ffffffffffffffffffffffff/participants`, partner())).statusCode).toBe(
      404,
    );
    expect((await call('GET', `/api/admin/courses/${course}/participants`, ann.token)).statusCode).toBe(403);

    const other = app.jwt.sign({ sub: 'cccccccccccccccccccccc10', role: 'partner', username: 'q', iatMs: Date.now() });
    expect((await call('GET', `/api/admin/rounds/${now}`, other)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/rounds/${now}`, ann.token)).statusCode).toBe(403);
  });

  it('answers a profile QR shown to the camera with what it is, in the scanner’s language, and audits it', async () => {
    const {
      id: course,
      rounds: [round],
    } = await courseWithRounds(partner(), [[-hour, hour]], 'Wrong card');
    const eve = await approvedMember('Eve Profile');
    await enrolledSince(course, eve.id, iso(-2 * hour));
    const profileQr = `https://192.168.1.20:3443/api/members/profile/${eve.id}`;
    const answer = await app.inject({
      method: 'PUT',
      url: `/api/admin/updateround/${round}`,
      headers: { authorization: `Bearer ${partner()}`, 'accept-language': 'th' },
      payload: { userId: profileQr, method: 'camera', deviceId: 'door-1' },
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({
      outcome: 'refused',
      reason: 'profileQr',
      message: 'นี่คือ QR โปรไฟล์ ไม่ใช่บัตรเข้าเรียน: กรุณาเปิดบัตรเข้าเรียนของคุณ',
      member: { _id: eve.id, fullName: 'Eve Profile' },
    });
    const typed = await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: profileQr });
    expect(typed.json().message).toBe('This is a profile QR, not an attendance pass: open your pass.');
    const audit = (await call('GET', `/api/admin/audit/scans?courseId=${course}`, portal.adminToken)).json();
    expect(audit.attempts.map((a: { reason: string; member: { _id: string } | null }) => a.reason)).toEqual([
      'profileQr',
      'profileQr',
    ]);
    // Her pass still counts afterwards.
    const pass = (await call('GET', '/api/members/me/pass', eve.token)).json().code;
    const scanned = await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: pass, method: 'camera' });
    expect(scanned.json().outcome).toBe('accepted');
  });

  it('audits every attempt with filters, and exports the same rows as CSV', async () => {
    const topic = 'ตรวจสอบการเข้าเรียน, "audited"';
    const course = (
      await call('POST', '/api/admin/createcourse', partner(), {
        courseTopic: topic,
        courseDescription: 'Every attempt counts',
        maxPeople: 0,
        status: 'public',
      })
    ).json()._id as string;
    const round = (
      await call('POST', `/api/admin/courses/${course}/rounds`, partner(), {
        roundStartTime: iso(-hour),
        roundEndTime: iso(hour),
      })
    ).json().round._id as string;
    const dee = await approvedMember('Dee Audited');
    await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: dee.id, deviceId: 'door-1' });
    // door-2 was offline and accepted her alone; the server already had her: the audit keeps both answers.
    await call('PUT', `/api/admin/updateround/${round}`, partner(), {
      userId: dee.id,
      deviceId: 'door-2',
      offlineDecision: 'accepted',
    });
    await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: 'nobody-at-all', deviceId: 'door-2' });

    const audit = (await call('GET', `/api/admin/audit/scans?courseId=${course}`, portal.adminToken)).json();
    expect(audit).toMatchObject({ success: true, total: 3, page: 1, pages: 1 });
    expect(audit.attempts.map((a: { outcome: string; reason: string | null }) => [a.outcome, a.reason])).toEqual([
      ['refused', 'unknownMember'],
      ['refused', 'duplicate'],
      ['accepted', null],
    ]);
    expect(audit.attempts[2]).toMatchObject({
      courseTopic: topic,
      memberName: 'Dee Audited',
      scannerId: 'cccccccccccccccccccccc09',
      deviceId: 'door-1',
      method: 'typed',
      lateUploaded: false,
      offlineDecision: null,
    });
    expect(audit.attempts[1]).toMatchObject({ reason: 'duplicate', deviceId: 'door-2', offlineDecision: 'accepted' });
    const refused = (
      await call(
        'GET',
        `/api/admin/audit/scans?courseId=${course}&outcome=refused&memberId=${dee.id}`,
        portal.adminToken,
      )
    ).json();
    expect(refused.attempts).toHaveLength(1);
    expect(refused.total).toBe(1);
    // Totals from the kept counts (course, round, outcome) and from the rows (member), paged or not.
    for (const [query, total] of [
      [`courseId=${course}&outcome=refused`, 2],
      [`roundId=${round}&outcome=accepted`, 1],
      [`roundId=${round}&courseId=${course}`, 3],
      [`courseId=${course}&memberId=${dee.id}`, 2],
      [`courseId=${course}&pageSize=1&page=3`, 3],
      [`courseId=${course}&pageSize=1&page=4`, 3],
    ] as const) {
      const page = (await call('GET', `/api/admin/audit/scans?${query}`, portal.adminToken)).json();
      expect(page.total, query).toBe(total);
    }
    const everything = (await call('GET', `/api/admin/audit/scans?pageSize=100`, portal.adminToken)).json();
    const counted = await call('GET', `/api/admin/audit/scans.csv`, portal.adminToken);
    expect(everything.total).toBe(openCsv(counted.body).rows.length);
    const future = (
      await call(
        'GET',
        `/api/admin/audit/scans?courseId=${course}&from=${encodeURIComponent(iso(hour))}`,
        portal.adminToken,
      )
    ).json();
    expect(future.total).toBe(0);
    const badRange = await call('GET', `/api/admin/audit/scans?from=last-week`, portal.adminToken);
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().errors).toEqual({ from: 'Please give a valid date and time.' });
    expect((await call('GET', `/api/admin/audit/scans`, partner())).statusCode).toBe(403);

    const csv = await app.inject({
      method: 'GET',
      url: `/api/admin/audit/scans.csv?courseId=${course}`,
      headers: { authorization: `Bearer ${portal.adminToken}` },
    });
    expect(csv.headers['content-disposition']).toBe('attachment; filename="scan_audit.csv"');
    // Opened as a spreadsheet would, column by column, against the audit's own rows.
    const sheet = openCsv(csv.body);
    expect(sheet.header).toEqual([
      'Server time',
      'Device time',
      'Outcome',
      'Reason',
      'Course',
      'Course ID',
      'Round ID',
      'Member',
      'Member ID',
      'Scanner',
      'Scanner ID',
      'Device',
      'Method',
      'Uploaded late',
      'Decided offline',
    ]);
    expect(sheet.rows).toEqual(
      audit.attempts.map((a: Record<string, string | null>, index: number) => [
        exportedMoment(a.serverTime),
        exportedMoment(a.deviceTime), // a live scan's device time is the server's
        ['REFUSED', 'REFUSED', 'ACCEPTED'][index],
        ['unknownMember', 'duplicate', ''][index],
        topic,
        course,
        round,
        ['', 'Dee Audited', 'Dee Audited'][index],
        a.memberId ?? '',
        '',
        'cccccccccccccccccccccc09',
        ['door-2', 'door-2', 'door-1'][index],
        'typed',
        'no',
        ['', 'accepted', ''][index],
      ]),
    );
    expect(audit.attempts.map((a: { memberId: string | null }) => a.memberId)).toEqual([
      null, // what was typed is not a member id, so none is kept
      dee.id,
      dee.id,
    ]);
  });

  it('tells open course pages about a scan made elsewhere, through server-sent events', async () => {
    const {
      id: course,
      rounds: [round],
    } = await courseWithRounds(partner(), [[-hour, hour]], 'Live course');
    const member = await approvedMember('Live Member');
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/live/courses/${course}`, {
      headers: { authorization: `Bearer ${partner()}` },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const received: string[] = [];
    const changed = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        received.push(decoder.decode(value));
        if (received.join('').includes('event: changed')) return true;
      }
    })();
    const scanned = await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: member.id });
    expect(await changed).toBe(true);
    expect(received.join('')).toContain(`"position":`);
    expect(scanned.statusCode).toBe(200);
    await reader.cancel();
    const unauthorised = await fetch(`${address}/api/live/courses/${course}`);
    expect(unauthorised.status).toBe(401);
  });
});
