import type { ScanAnswer } from '@portal/contracts/answers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_WINDOW_MS } from '@portal/contracts/attendance/pass-code';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';
import { correctionOf } from '../src/features/attendance/offline/corrections.ts';
import { type RoomSnapshot, decideOffline } from '../src/features/attendance/offline/decide-offline.ts';

const keys = passKeysFor('the-server-pass-secret');
const start = Date.parse('2026-11-24T09:00:00.000Z');
const ann = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaa01',
  fullName: 'Ann',
  username: 'ann.member',
  scannedAt: null,
  enrolledNow: true,
};
const ben = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaa02',
  fullName: 'Ben',
  username: 'ben.member',
  scannedAt: null,
  enrolledNow: true,
};
const cat = {
  _id: 'aaaaaaaaaaaaaaaaaaaaaa03',
  fullName: 'Cat',
  username: 'cat.member',
  scannedAt: '2026-11-24T09:02:00.000Z',
  enrolledNow: true,
};
const stranger = 'aaaaaaaaaaaaaaaaaaaaaa09';
const room: RoomSnapshot = {
  roster: [ann, ben, cat],
  scanWindow: {
    opensAt: new Date(start).toISOString(),
    closesAt: new Date(start + 3_600_000).toISOString(),
    lateFrom: new Date(start + 15 * 60_000).toISOString(),
  },
  passKey: keys.publicKey,
};
const none = new Map<string, string>();
const at = (minutes: number) => start + minutes * 60_000;

/** The round page's own decision with no connection (issue 18, item 4). */
describe('deciding a scan offline', () => {
  it('accepts a current pass of someone enrolled, late after the threshold', () => {
    const now = at(5);
    expect(decideOffline(keys.issue(ann._id, now).code, 'camera', room, now, none)).toEqual({
      decision: 'accepted',
      memberId: ann._id,
      name: 'Ann',
      late: false,
    });
    expect(decideOffline(keys.issue(ann._id, at(20)).code, 'camera', room, at(20), none)).toMatchObject({
      decision: 'accepted',
      late: true,
    });
  });

  it('answers a duplicate from the last sync or from this device, with the first time', () => {
    const now = at(5);
    expect(decideOffline(keys.issue(cat._id, now).code, 'camera', room, now, none)).toMatchObject({
      decision: 'duplicate',
      name: 'Cat',
      firstScannedAt: cat.scannedAt,
    });
    const seen = new Map([[ann._id, '2026-11-24T09:03:00.000Z']]);
    expect(decideOffline(keys.issue(ann._id, now).code, 'camera', room, now, seen)).toMatchObject({
      decision: 'duplicate',
      firstScannedAt: '2026-11-24T09:03:00.000Z',
    });
  });

  it('queues someone not enrolled as a walk-in request, not a promise', () => {
    const now = at(5);
    // Enrolled after the round started: not expected, but enrolled, so not a walk-in.
    const late = { ...ben, _id: 'aaaaaaaaaaaaaaaaaaaaaa04', fullName: 'Dee' };
    const withLate = { ...room, roster: [...room.roster, late] };
    expect(decideOffline(keys.issue(late._id, now).code, 'camera', withLate, now, none)).toMatchObject({
      decision: 'accepted',
      name: 'Dee',
    });
    expect(decideOffline(keys.issue(stranger, now).code, 'camera', room, now, none)).toEqual({
      decision: 'walkInRequested',
      memberId: stranger,
      name: null,
    });
  });

  it('refuses an old pass (a screenshot), a forged one, a profile QR and an id shown to the camera', () => {
    const now = at(5);
    const screenshot = keys.issue(ben._id, now - 2 * PASS_WINDOW_MS).code;
    expect(decideOffline(screenshot, 'camera', room, now, none)).toMatchObject({
      decision: 'codeExpired',
      name: 'Ben',
    });
    const forged = passKeysFor('someone-else').issue(ann._id, now).code;
    expect(decideOffline(forged, 'camera', room, now, none)).toMatchObject({ decision: 'unknownMember' });
    const profile = `https://portal.local:3443/api/members/profile/${ann._id}`;
    expect(decideOffline(profile, 'camera', room, now, none)).toMatchObject({ decision: 'profileQr', name: 'Ann' });
    expect(decideOffline(ann._id, 'camera', room, now, none)).toMatchObject({ decision: 'passRequired' });
    expect(decideOffline('ANN.member', 'typed', room, now, none)).toMatchObject({ decision: 'accepted', name: 'Ann' });
    expect(decideOffline('nobody-here', 'typed', room, now, none)).toMatchObject({ decision: 'unknownMember' });
  });

  it('judges by the server’s clock: a device 10 minutes slow still reads a fresh pass as fresh', () => {
    const serverTime = at(5);
    const code = keys.issue(ann._id, serverTime).code;
    const deviceClock = serverTime - 10 * 60_000;
    // Uncorrected, the fresh pass looks like one from the future, and a person at the door is turned away.
    expect(decideOffline(code, 'camera', room, deviceClock, none)).toMatchObject({ decision: 'codeExpired' });
    const offset = serverTime - deviceClock; // measured at the last sync
    expect(decideOffline(code, 'camera', room, deviceClock + offset, none)).toMatchObject({ decision: 'accepted' });
  });

  it('refuses before scanning opens and after it closes', () => {
    expect(decideOffline(keys.issue(ann._id, at(-1)).code, 'camera', room, at(-1), none)).toMatchObject({
      decision: 'roundNotActive',
    });
    expect(decideOffline(keys.issue(ann._id, at(61)).code, 'camera', room, at(61), none)).toMatchObject({
      decision: 'roundNotActive',
    });
  });

  it('never lets anyone in on text the server did not sign, whatever it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const verdict = decideOffline(`P2.${text}`, 'camera', room, at(5), none);
        expect(['accepted', 'walkInRequested']).not.toContain(verdict.decision);
        expect(['accepted', 'walkInRequested']).not.toContain(
          decideOffline(text, 'camera', room, at(5), none).decision,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('what the scanner says when the server answered otherwise', () => {
  const t = (key: string, values?: Record<string, unknown>) => `${key} ${JSON.stringify(values ?? {})}`;
  const time = (iso: string) => iso.slice(11, 16);
  const answer = (outcome: 'accepted' | 'refused', more: Partial<ScanAnswer> = {}): ScanAnswer => ({
    success: outcome === 'accepted',
    message: 'server message',
    outcome,
    member: { _id: ann._id, fullName: 'Ann' },
    memberId: ann._id,
    position: 1,
    ...more,
  });
  const accepted = { decision: 'accepted' as const, memberId: ann._id, name: 'Ann' };

  it('says the server already had her from another device, and when', () => {
    const duplicate = answer('refused', { reason: 'duplicate', firstScannedAt: '2026-11-24T09:02:00.000Z' });
    expect(correctionOf(accepted, duplicate, t, time)).toBe('round.correction.duplicate {"name":"Ann","time":"09:02"}');
  });

  it('is silent when both agree, and speaks for a walk-in granted or a refusal the device could not see', () => {
    expect(correctionOf(accepted, answer('accepted'), t, time)).toBeNull();
    const refusedBoth = { decision: 'codeExpired' as const, memberId: ann._id, name: 'Ann' };
    expect(correctionOf(refusedBoth, answer('refused', { reason: 'codeExpired' }), t, time)).toBeNull();
    const walkIn = { decision: 'walkInRequested' as const, memberId: ann._id, name: 'Ann' };
    expect(correctionOf(walkIn, answer('accepted'), t, time)).toMatch(/^round.correction.walkInAccepted/);
    expect(correctionOf(walkIn, answer('refused', { reason: 'courseFull' }), t, time)).toBe(
      'round.correction.refused {"name":"Ann","message":"server message"}',
    );
    expect(correctionOf(accepted, null, t, time)).toMatch(/^round.correction.failed/);
  });
});
