import { describe, expect, it } from 'vitest';
import { DeviceCheckedIn } from '@portal/contracts/attendance/attendance.events';
import { CourseCreated, MemberEnrolled, SelfCheckInConfigured } from '@portal/contracts/courses/course.events';
import { ROOM_CODE_GRACE_MS, ROOM_CODE_MS, roomCodeAt, roomCodeTaken } from '@portal/platform/attendance/room-code';
import { courseDecider } from '../courses/decider.ts';
import { selfWalkIn } from '../courses/decide.ts';
import { deciderSpecification } from '../testing/decider-specification.ts';
import { deviceDecider } from './device.ts';
import { type SelfCheckInFacts, metresBetween, selfCheckInRefusal } from './self-check-in-rules.ts';

const now = '2026-11-25T09:00:00.000Z';
const partner = { id: 'partner-1', role: 'partner' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const member = { id: 'member-1', role: 'member' as const };
const shop = { latitude: 13.7307, longitude: 100.5418, radiusMetres: 100 };

const facts = (overrides: Partial<SelfCheckInFacts> = {}): SelfCheckInFacts => ({
  codeTaken: true,
  rules: { location: null, onePerDevice: false },
  distanceMetres: null,
  device: 'free',
  ...overrides,
});

describe('the rules of checking oneself in', () => {
  it('refuses a code that is not the current one before anything else, whatever else is wrong', () => {
    expect(selfCheckInRefusal(facts({ codeTaken: false }))).toBe('roomCodeExpired');
    const everythingWrong = facts({
      codeTaken: false,
      rules: { location: shop, onePerDevice: true },
      distanceMetres: 9_000,
      device: 'taken',
    });
    expect(selfCheckInRefusal(everythingWrong)).toBe('roomCodeExpired');
  });

  it('asks where the phone is only when the course has a place, and takes the radius itself', () => {
    expect(selfCheckInRefusal(facts())).toBeNull();
    const placed = { location: shop, onePerDevice: false };
    expect(selfCheckInRefusal(facts({ rules: placed }))).toBe('locationRequired');
    expect(selfCheckInRefusal(facts({ rules: placed, distanceMetres: 100 }))).toBeNull();
    expect(selfCheckInRefusal(facts({ rules: placed, distanceMetres: 101 }))).toBe('tooFar');
  });

  it('refuses a second member from one device only where the course says so', () => {
    expect(selfCheckInRefusal(facts({ device: 'taken' }))).toBeNull();
    const onePerDevice = { location: null, onePerDevice: true };
    expect(selfCheckInRefusal(facts({ rules: onePerDevice, device: 'taken' }))).toBe('deviceUsed');
    expect(selfCheckInRefusal(facts({ rules: onePerDevice, device: 'theirs' }))).toBeNull();
    expect(selfCheckInRefusal(facts({ rules: onePerDevice, device: 'free' }))).toBeNull();
  });

  it('measures distances on the earth (Bangkok landmarks, worked out by hand)', () => {
    expect(metresBetween(shop, shop)).toBe(0);
    // One thousandth of a degree of latitude is 111.2 m anywhere.
    expect(metresBetween(shop, { latitude: shop.latitude + 0.001, longitude: shop.longitude })).toBe(111);
    // Lumphini Park to Victory Monument: about 3.8 km.
    const victory = { latitude: 13.7649, longitude: 100.5383 };
    expect(metresBetween(shop, victory)).toBeGreaterThan(3_700);
    expect(metresBetween(shop, victory)).toBeLessThan(3_900);
  });
});

describe('the room code', () => {
  const secret = 'a-pass-secret-for-room-codes';
  const t0 = Date.parse(now);

  it('changes every 15 s, is taken until the next one plus the grace, and is its round’s only', () => {
    const { code, expiresAt } = roomCodeAt(secret, 'round-1', t0);
    expect(expiresAt - t0).toBeLessThanOrEqual(ROOM_CODE_MS);
    expect(roomCodeAt(secret, 'round-1', expiresAt - 1).code).toBe(code);
    expect(roomCodeAt(secret, 'round-1', expiresAt).code).not.toBe(code);
    expect(roomCodeTaken(secret, 'round-1', code, expiresAt - 1)).toBe(true);
    expect(roomCodeTaken(secret, 'round-1', code, expiresAt + ROOM_CODE_GRACE_MS - 1)).toBe(true);
    // A photo sent home: dead once the grace is over, within 25 s of being shown.
    expect(roomCodeTaken(secret, 'round-1', code, expiresAt + ROOM_CODE_GRACE_MS)).toBe(false);
    expect(roomCodeTaken(secret, 'round-2', code, t0)).toBe(false);
    expect(roomCodeTaken('another-secret', 'round-1', code, t0)).toBe(false);
    expect(roomCodeTaken(secret, 'round-1', `${code}x`, t0)).toBe(false);
    expect(roomCodeTaken(secret, 'round-1', '', t0)).toBe(false);
  });
});

describe('a device in a round', () => {
  const given = deciderSpecification(deviceDecider, 'self-check-in-device-round-1-phone-1');
  const from = (memberId: string) => ({
    type: 'CheckInFrom' as const,
    data: { roundId: 'round-1', deviceId: 'phone-1', memberId },
    metadata: { actor: { id: memberId, role: 'member' as const }, now },
  });
  const checkedIn = (memberId: string) =>
    DeviceCheckedIn.create({ roundId: 'round-1', deviceId: 'phone-1', memberId, checkedInAt: now });

  it('is held by the first member it checks in; the same member again changes nothing', () => {
    given()
      .when(from('member-1'))
      .then([{ type: 'DeviceCheckedIn', data: { memberId: 'member-1' } }]);
    given(checkedIn('member-1')).when(from('member-1')).then([]);
    given(checkedIn('member-1')).when(from('member-2')).then([]);
  });
});

describe('the course, for self check-in', () => {
  const given = deciderSpecification(courseDecider, 'course-1');
  const created = (status: 'public' | 'private' = 'public', maxPeople = 0) =>
    CourseCreated.create({
      courseTopic: 'Thai cooking',
      courseDescription: 'Curries',
      maxPeople,
      status,
      creator: partner.id,
      createdAt: now,
    });
  const configure = (actor: { id: string; role: 'admin' | 'partner' | 'member' }) => ({
    type: 'ConfigureSelfCheckIn' as const,
    data: { location: shop, onePerDevice: true },
    metadata: { actor, now },
  });

  it('takes the place and the device rule from its creator or an admin, once', () => {
    given(created())
      .when(configure(partner))
      .then([
        { type: 'SelfCheckInConfigured', data: { location: shop, onePerDevice: true, configuredBy: partner.id } },
      ]);
    given(created())
      .when(configure(admin))
      .then([{ type: 'SelfCheckInConfigured', data: { configuredBy: admin.id } }]);
    given(created())
      .when(configure({ id: 'partner-2', role: 'partner' }))
      .refused('forbidden', 'course.notCreator');
    given(created()).when(configure(member)).refused('forbidden', 'course.notCreator');
    const same = SelfCheckInConfigured.create({
      location: shop,
      onePerDevice: true,
      configuredBy: partner.id,
      configuredAt: now,
    });
    given(created(), same).when(configure(partner)).then([]);
  });

  it('lets a member walk in by themselves on a public course with room, never on a private one', () => {
    const state = (...events: ReturnType<typeof created>[]) =>
      events.reduce(
        (folded, event) => courseDecider.evolve(folded, { ...event } as never),
        courseDecider.initialState(),
      );
    expect(selfWalkIn(state(created()), { memberId: 'member-1', now }).admitted).toBe('walkIn');
    expect(selfWalkIn(state(created()), { memberId: 'member-1', now }).events).toEqual([
      expect.objectContaining({ type: 'MemberEnrolled', data: expect.objectContaining({ walkIn: true }) }),
    ]);
    expect(selfWalkIn(state(created('private')), { memberId: 'member-1', now }).admitted).toBe('private');
    const full = [created('public', 1), MemberEnrolled.create({ memberId: 'member-9', enrolledAt: now })];
    expect(selfWalkIn(state(...(full as ReturnType<typeof created>[])), { memberId: 'member-1', now }).admitted).toBe(
      'full',
    );
    const enrolled = [created('private'), MemberEnrolled.create({ memberId: 'member-1', enrolledAt: now })];
    expect(
      selfWalkIn(state(...(enrolled as ReturnType<typeof created>[])), { memberId: 'member-1', now }).admitted,
    ).toBe('enrolled');
  });
});
