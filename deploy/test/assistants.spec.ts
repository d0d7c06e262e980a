import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseStream } from '@portal/contracts/courses/course.events';
import { sampleMember, samplePartner } from '@portal/platform/testing/accounts';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const hour = 3600_000;

/**
 * Scan-only assistants (issue 18, item 7) through the whole portal: the course's creator adds an
 * approved member or partner by username; the assistant opens the course's rounds and scans, and
 * is refused everything else; anyone else is refused scanning; removal takes it back; the log
 * records who added and removed them.
 */
describe.each(testDatabases())('scan-only assistants on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database);
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember, courseWithRounds } = portalCalls(() => portal);
  const owner = 'cccccccccccccccccccccc21';

  async function approvedPartner() {
    const person = samplePartner({ fullName: 'Pia Partner' });
    const { _id } = (await call('POST', '/api/partners/register', '', person)).json();
    await call('PUT', `/api/admin/registration/${_id}/status`, portal.adminToken, { status: 'approved' });
    const token = (
      await call('POST', '/api/login', '', { username: person.username, password: person.password })
    ).json().partner.token as string;
    return { id: _id as string, token, person };
  }

  it('lets the creator add approved members and partners, who scan and do nothing else', async () => {
    const ownerToken = partner(owner);
    const { id: course, rounds } = await courseWithRounds(ownerToken, [[-hour, hour]], 'Assisted course');
    const round = rounds[0]!;
    const [asa, ann, bob] = [
      await approvedMember('Asa Assistant'),
      await approvedMember('Ann Scanned'),
      await approvedMember('Bob Bystander'),
    ];
    const pia = await approvedPartner();
    const pending = sampleMember({ fullName: 'Pat Pending' });
    await call('POST', '/api/members/register', '', pending);
    const add = (username: string, token = ownerToken) =>
      call('POST', `/api/admin/courses/${course}/assistants`, token, { username });

    // Only the creator (or an admin) adds; only an approved member or partner can be one.
    expect((await add(asa.person.username, partner('cccccccccccccccccccccc22'))).statusCode).toBe(403);
    expect((await add(asa.person.username, asa.token)).statusCode).toBe(403);
    const unknown = await add('nobody-by-this-name');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors.username).toBe('No user has this username.');
    expect((await add(pending.username)).json()).toMatchObject({
      success: false,
      message: 'A scanning assistant must be an approved member or partner.',
    });
    expect((await add(asa.person.username)).statusCode).toBe(201);
    expect((await add(asa.person.username)).statusCode).toBe(201); // twice is once
    expect((await add(pia.person.username, portal.adminToken)).statusCode).toBe(201);

    const list = (await call('GET', `/api/admin/courses/${course}/assistants`, ownerToken)).json();
    expect(list.assistants.map((a: { fullName: string }) => a.fullName)).toEqual(['Asa Assistant', 'Pia Partner']);
    expect((await call('GET', `/api/admin/courses/${course}/assistants`, asa.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/courses/${course}/assistants`, pia.token)).statusCode).toBe(403);

    // Told so, in a notification of their own.
    const told = (await call('GET', '/api/notifications', asa.token)).json();
    expect(told.notifications).toContainEqual(
      expect.objectContaining({ type: 'assistant_added', courseId: course, courseTopic: 'Assisted course' }),
    );
    const bobTold = (await call('GET', '/api/notifications', bob.token)).json();
    expect(bobTold.notifications.map((n: { type: string }) => n.type)).not.toContain('assistant_added');

    // The assistant finds the round on their home, opens it, and scans.
    const assisting = (await call('GET', '/api/assisting', asa.token)).json();
    expect(assisting.rounds.map((r: { _id: string }) => r._id)).toEqual([round]);
    expect((await call('GET', `/api/admin/rounds/${round}`, asa.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/clock', asa.token)).statusCode).toBe(200);
    const code = (await call('GET', '/api/members/me/pass', ann.token)).json().code as string;
    const scanned = await call('PUT', `/api/admin/updateround/${round}`, asa.token, { userId: code, method: 'camera' });
    expect(scanned.json()).toMatchObject({ outcome: 'accepted', walkIn: true });
    const byPia = await call('PUT', `/api/admin/updateround/${round}`, pia.token, { userId: ann.person.username });
    expect(byPia.json()).toMatchObject({ outcome: 'refused', reason: 'duplicate' });

    // And nothing else: no editing, rounds, voids, reports, participants, audit or exports.
    const refusedToAssistant = [
      call('PUT', `/api/admin/updatecourses/${course}`, asa.token, { courseTopic: 'Mine now', courseDescription: 'x' }),
      call('PUT', `/api/admin/updatecourses/${course}`, pia.token, { courseTopic: 'Mine now', courseDescription: 'x' }),
      call('POST', `/api/admin/courses/${course}/rounds`, pia.token, {
        roundStartTime: new Date(Date.now() + 3 * hour).toISOString(),
        roundEndTime: new Date(Date.now() + 4 * hour).toISOString(),
      }),
      call('POST', `/api/admin/rounds/${round}/attendance/${ann.id}/void`, asa.token, { reason: 'mine' }),
      call('POST', `/api/admin/rounds/${round}/attendance/${ann.id}/void`, pia.token, { reason: 'mine' }),
      call('POST', `/api/admin/courses/${course}/assistants`, pia.token, { username: bob.person.username }),
      call('DELETE', `/api/admin/courses/${course}/assistants/${asa.id}`, pia.token),
      call('GET', `/api/admin/courses/${course}/report`, asa.token),
      call('GET', `/api/admin/courses/${course}/participants`, asa.token),
      call('GET', `/api/admin/audit/scans?courseId=${course}`, asa.token),
      call('GET', `/api/admin/audit/scans?courseId=${course}`, pia.token),
      call('GET', `/api/admin/audit/scans.csv?courseId=${course}`, pia.token),
    ];
    for (const answer of await Promise.all(refusedToAssistant)) expect(answer.statusCode).toBe(403);

    // Someone who is not an assistant can neither open the round nor scan in it.
    expect((await call('GET', `/api/admin/rounds/${round}`, bob.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/live/courses/${course}`, bob.token)).statusCode).toBe(403);
    const bobScans = await call('PUT', `/api/admin/updateround/${round}`, bob.token, { userId: asa.person.username });
    expect(bobScans.statusCode).toBe(403);
    expect(bobScans.json().message).toBe(
      'Only the course creator, its scanning assistants or an administrator can scan in this round.',
    );
    expect((await call('GET', '/api/assisting', bob.token)).json().rounds).toEqual([]);

    // Removed: no longer.
    expect((await call('DELETE', `/api/admin/courses/${course}/assistants/${asa.id}`, ownerToken)).statusCode).toBe(
      200,
    );
    expect((await call('GET', `/api/admin/rounds/${round}`, asa.token)).statusCode).toBe(403);
    const after = await call('PUT', `/api/admin/updateround/${round}`, asa.token, { userId: bob.person.username });
    expect(after.statusCode).toBe(403);
    expect((await call('GET', '/api/assisting', asa.token)).json().rounds).toEqual([]);

    // The log says who added and removed whom, and when; the audit names the assistant as the scanner.
    const log = (await portal.store.readStream(courseStream(course))).filter((e) => e.type.startsWith('Assistant'));
    expect(log.map((e) => [e.type, (e.data as { assistantId: string }).assistantId])).toEqual([
      ['AssistantAdded', asa.id],
      ['AssistantAdded', pia.id],
      ['AssistantRemoved', asa.id],
    ]);
    expect(
      log.map(
        (e) =>
          (e.data as { addedBy?: string; removedBy?: string }).addedBy ?? (e.data as { removedBy: string }).removedBy,
      ),
    ).toEqual([owner, expect.any(String), owner]);
    const audit = (await call('GET', `/api/admin/audit/scans?roundId=${round}`, portal.adminToken)).json();
    expect(audit.attempts.map((a: { scannerName: string; outcome: string }) => [a.scannerName, a.outcome])).toEqual([
      ['Pia Partner', 'refused'],
      ['Asa Assistant', 'accepted'],
    ]);
  });
});
