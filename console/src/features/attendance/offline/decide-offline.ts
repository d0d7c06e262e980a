import type { OfflineDecision } from '@portal/contracts/attendance/attendance.events';
import { passChecker } from '@portal/contracts/attendance/pass-check';
import { profileLinkMember } from '@portal/contracts/attendance/pass-code';
import type { ScanMethod } from '../api/send-scan.ts';

/** What a scanner keeps of a round to decide alone: the roster at the last sync, the times, the key. */
export interface RoomSnapshot {
  roster: {
    _id: string;
    fullName: string | null;
    username: string | null;
    scannedAt: string | null;
    /** Enrolled in the course now (not a walk-in). */
    enrolledNow: boolean;
    photo?: string | null;
  }[];
  scanWindow: { opensAt: string; closesAt: string; lateFrom: string };
  /** The server's public key for passes (base64url Ed25519). */
  passKey: string;
}

/** A decision made with no connection; the server decides again when the scan is sent. */
export interface OfflineVerdict {
  decision: OfflineDecision;
  memberId: string | null;
  name: string | null;
  /** Accepted: after the late threshold. */
  late?: boolean;
  /** Duplicate: when the member was first scanned (at the last sync, or on this device). */
  firstScannedAt?: string;
}

const HEX_ID = /^[0-9a-f]{24}$/;

/**
 * The round page's decision with no connection (issue 18), by the rules the server applies, as
 * far as a device can know them: a pass must be signed by the server's key and current by the
 * device's clock corrected to the server's (`now`); a profile QR or an id shown to the camera is
 * not a pass; someone scanned at the last sync or already on this device (`seen`) is a
 * duplicate; someone enrolled is accepted (late after the threshold); anyone else is a walk-in
 * request, which only the server can grant (the course may be full). Approval and capacity are
 * the server's to check.
 */
export function decideOffline(
  input: string,
  method: ScanMethod,
  room: RoomSnapshot,
  now: number,
  seen: ReadonlyMap<string, string>,
): OfflineVerdict {
  const text = input.trim();
  const check = passChecker(room.passKey);
  const reading = check ? check(text, now) : { kind: 'plain' as const, value: text };
  const person = (memberId: string) => room.roster.find((entry) => entry._id === memberId);
  const verdict = (decision: OfflineDecision, memberId: string | null): OfflineVerdict => {
    const entry = memberId ? person(memberId) : undefined;
    return { decision, memberId, name: entry ? entry.fullName || entry.username || entry._id : null };
  };

  let memberId: string;
  if (reading.kind === 'pass') {
    if (!reading.authentic) return verdict('unknownMember', null);
    if (!reading.fresh) return verdict('codeExpired', reading.memberId);
    memberId = reading.memberId;
  } else {
    const profile = profileLinkMember(reading.value);
    if (profile) return verdict('profileQr', profile);
    const lower = reading.value.toLowerCase();
    const entry = HEX_ID.test(reading.value)
      ? person(reading.value)
      : room.roster.find((candidate) => candidate.username?.toLowerCase() === lower);
    // Someone the roster does not hold, typed: only the server knows who it is.
    if (!entry) return verdict('unknownMember', HEX_ID.test(reading.value) ? reading.value : null);
    if (method === 'camera') return verdict('passRequired', entry._id);
    memberId = entry._id;
  }

  if (now < Date.parse(room.scanWindow.opensAt) || now > Date.parse(room.scanWindow.closesAt)) {
    return verdict('roundNotActive', memberId);
  }
  const first = person(memberId)?.scannedAt ?? seen.get(memberId);
  if (first) return { ...verdict('duplicate', memberId), firstScannedAt: first };
  if (!person(memberId)?.enrolledNow) return verdict('walkInRequested', memberId);
  return { ...verdict('accepted', memberId), late: now > Date.parse(room.scanWindow.lateFrom) };
}
