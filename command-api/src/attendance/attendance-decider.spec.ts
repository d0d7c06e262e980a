import { describe, it } from 'vitest';
import { AttendanceScanned, AttendanceVoided } from '@portal/contracts/attendance/attendance.events';
import type { Attempt, AttendanceCommand, ScanContext } from '../attendance/decide.ts';
import { attendanceDecider } from '../attendance/decider.ts';
import type { Actor } from '../core/command.ts';
import { deciderSpecification } from '../testing/decider-specification.ts';

const start = '2026-11-23T09:00:00.000Z';
const end = '2026-11-23T11:00:00.000Z';
const partner: Actor = { id: 'partner-1', role: 'partner' };
const admin: Actor = { id: 'admin-1', role: 'admin' };
const by = (now: string, actor: Actor = partner) => ({ actor, now });
const at = (minutesAfterStart: number) => new Date(Date.parse(start) + minutesAfterStart * 60_000).toISOString();

const attempt = (minutes: number, overrides: Partial<Attempt> = {}): Attempt => ({
  courseId: 'course-1',
  roundId: 'round-1',
  memberId: 'member-1',
  scannerId: 'partner-1',
  deviceId: 'phone-1',
  method: 'camera',
  deviceTime: at(minutes),
  serverTime: at(minutes),
  ...overrides,
});
const context = (overrides: Partial<ScanContext> = {}): ScanContext => ({
  round: { start, end },
  opensEarlyMinutes: 0,
  closesLateMinutes: 0,
  lateAfterMinutes: 15,
  memberApproved: true,
  enrolled: true,
  hasRoom: true,
  ...overrides,
});
const scan = (minutes: number, ctx: Partial<ScanContext> = {}, overrides: Partial<Attempt> = {}): AttendanceCommand => {
  const made = attempt(minutes, overrides);
  return { type: 'Scan', data: { attempt: made, context: context(ctx) }, metadata: by(made.serverTime) };
};

const given = deciderSpecification(attendanceDecider, 'attendance-round-1-member-1');

const accepted = (minutes: number) =>
  AttendanceScanned.create({
    ...attempt(minutes),
    scannedAt: at(minutes),
    late: false,
    walkIn: false,
    lateUploaded: false,
  });

describe('the attendance decider', () => {
  it('accepts a scan within the round, both ends included, and marks arrivals after 15 minutes late', () => {
    given()
      .when(scan(0))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: start, late: false, walkIn: false } }]);
    given()
      .when(scan(15))
      .then([{ type: 'AttendanceScanned', data: { late: false } }]);
    given()
      .when(scan(16))
      .then([{ type: 'AttendanceScanned', data: { late: true } }]);
    given()
      .when(scan(120))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: end } }]);
  });

  it('refuses outside the round unless the margins open it earlier or close it later', () => {
    given()
      .when(scan(-1))
      .then([{ type: 'ScanRefused', data: { reason: 'roundNotActive', memberId: 'member-1' } }]);
    given()
      .when(scan(121))
      .then([{ type: 'ScanRefused', data: { reason: 'roundNotActive' } }]);
    given()
      .when(scan(-10, { opensEarlyMinutes: 10 }))
      .then([{ type: 'AttendanceScanned' }]);
    given()
      .when(scan(125, { closesLateMinutes: 5 }))
      .then([{ type: 'AttendanceScanned' }]);
  });

  it('records a member once per round: a second scan is a duplicate that says when the first was', () => {
    given(accepted(3))
      .when(scan(5))
      .then([{ type: 'ScanRefused', data: { reason: 'duplicate', firstScannedAt: at(3) } }]);
  });

  it('accepts again after an admin voided the scan', () => {
    const voided = AttendanceVoided.create({
      courseId: 'course-1',
      roundId: 'round-1',
      memberId: 'member-1',
      reason: 'scanned the wrong person',
      voidedBy: 'admin-1',
      voidedAt: at(4),
    });
    given(accepted(3), voided)
      .when(scan(6))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: at(6) } }]);
    given()
      .when({ type: 'Void', data: { attempt: attempt(0), reason: 'x' }, metadata: by(at(1), admin) })
      .refused('conflict', 'attendance.nothingToVoid');
  });

  it('refuses members who are not approved, and walk-ins when the course is full', () => {
    given()
      .when(scan(1, { memberApproved: false }))
      .then([{ type: 'ScanRefused', data: { reason: 'notApproved' } }]);
    given()
      .when(scan(1, { enrolled: false, hasRoom: false }))
      .then([{ type: 'ScanRefused', data: { reason: 'courseFull' } }]);
    given()
      .when(scan(1, { enrolled: false, hasRoom: true }))
      .then([{ type: 'AttendanceScanned', data: { walkIn: true } }]);
  });

  it('counts live scans at server time; a scan queued offline keeps its device time and is flagged late-uploaded', () => {
    // Made during the round, uploaded after it ended: it counts at the time it was made.
    given()
      .when(scan(130, {}, { deviceTime: at(30) }))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: at(30), lateUploaded: true, late: true } }]);
    // A live scan counts at the server's time, whatever the device's clock says.
    given()
      .when(scan(10, {}, { deviceTime: at(9) }))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: at(10), lateUploaded: false } }]);
    given()
      .when(scan(10, {}, { deviceTime: at(10 + 60 * 30) }))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: at(10), lateUploaded: false } }]);
    // A device clock more than a day behind is not believed either.
    given()
      .when(scan(10, {}, { deviceTime: at(10 - 60 * 25) }))
      .then([{ type: 'AttendanceScanned', data: { scannedAt: at(10), lateUploaded: true } }]);
  });

  it('records refusals decided before the stream (an expired pass, an unknown code)', () => {
    given()
      .when({ type: 'Refuse', data: { attempt: attempt(1), reason: 'codeExpired' }, metadata: by(at(1)) })
      .then([{ type: 'ScanRefused', data: { reason: 'codeExpired', memberId: 'member-1', firstScannedAt: null } }]);
    given()
      .when({
        type: 'Refuse',
        data: { attempt: attempt(1, { memberId: '' }), reason: 'unknownMember' },
        metadata: by(at(1)),
      })
      .then([{ type: 'ScanRefused', data: { reason: 'unknownMember', memberId: null } }]);
  });
});
