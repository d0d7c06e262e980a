import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '@portal/platform/testing/databases';
import { portalCalls } from '../src/testing/portal-calls.ts';
import { type TestPortal, openTestPortal } from '../src/testing/test-portal.ts';

const minute = 60_000;
const iso = (offset: number) => new Date(Date.now() + offset).toISOString();

/**
 * The round page learns from the server whether scanning is open (found: ended and future rounds
 * opened as a live scanner, and scans were refused only after trying). It is the window the
 * command side checks, margins included: open exactly when a scan is taken.
 */
describe.each(testDatabases())('whether a round takes scans, on $name', (database) => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await openTestPortal(database, {
      attendance: {
        passSecret: 'round-phase-pass-secret',
        opensEarlyMinutes: 30,
        closesLateMinutes: 30,
        lateAfterMinutes: 15,
      },
    });
  });
  afterAll(() => portal.close());
  const { call, partner, approvedMember, enrolledSince, courseWithRounds } = portalCalls(() => portal);

  it('says upcoming, open or ended by the scanning window, and takes scans exactly when open', async () => {
    const member = await approvedMember('Pim Phases');
    const rounds: [from: number, to: number, phase: string][] = [
      [120 * minute, 180 * minute, 'upcoming'], // opens in 90 minutes
      [20 * minute, 40 * minute, 'open'], // opens early: 30 minutes before its start
      [-10 * minute, 10 * minute, 'open'],
      [-40 * minute, -15 * minute, 'open'], // closes late: 30 minutes after its end
      [-180 * minute, -120 * minute, 'ended'],
    ];
    const { id: course, rounds: ids } = await courseWithRounds(
      partner(),
      rounds.map(([from, to]) => [from, to]),
      'Phases',
    );
    await enrolledSince(course, member.id, iso(-600 * minute));
    for (const [i, [from, , phase]] of rounds.entries()) {
      const round = ids[i]!;
      const shown = (await call('GET', `/api/admin/rounds/${round}`, partner())).json().round;
      expect(shown.scanning, `${from / minute} min`).toBe(phase);
      const scan = await call('PUT', `/api/admin/updateround/${round}`, partner(), { userId: member.id });
      expect(scan.json().outcome, `${from / minute} min`).toBe(phase === 'open' ? 'accepted' : 'refused');
    }
  });
});
