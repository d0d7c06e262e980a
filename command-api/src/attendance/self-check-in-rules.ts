import type { RefusalReason } from '@portal/contracts/attendance/attendance.events';
import type { SelfCheckInRules } from '@portal/contracts/courses/course.events';

/** Where the member's phone says it is. */
export interface Position {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_METRES = 6_371_008.8;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** The distance between two points on the earth, in whole metres (haversine). */
export function metresBetween(a: Position, b: Position): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_METRES * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** What a self check-in brings beyond a scan: the code, the course's rules, the phone's place and device. */
export interface SelfCheckInFacts {
  codeTaken: boolean;
  rules: SelfCheckInRules;
  /** How far the phone is from the course's place; null when the phone did not say where it is. */
  distanceMetres: number | null;
  /** Whom this device checked in to the round before (see ./device.ts). */
  device: 'free' | 'theirs' | 'taken';
}

/**
 * Why a member cannot check themselves in, before the rules every scan follows (./decide.ts):
 * the room code first (a photo sent home fails here, whatever else), then where they are, then
 * the device; null when nothing stands in the way.
 */
export function selfCheckInRefusal(facts: SelfCheckInFacts): RefusalReason | null {
  if (!facts.codeTaken) return 'roomCodeExpired';
  const { location, onePerDevice } = facts.rules;
  if (location) {
    if (facts.distanceMetres === null) return 'locationRequired';
    if (facts.distanceMetres > location.radiusMetres) return 'tooFar';
  }
  if (onePerDevice && facts.device === 'taken') return 'deviceUsed';
  return null;
}
