import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../src/accounts/login-throttle.ts';

describe('the sign-in throttle', () => {
  const limits = { perAccount: 3, perAddress: 5, windowMs: 60_000 };
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('refuses an account after its limit of failures until the oldest leaves the window', () => {
    const time = clock();
    const throttle = new LoginThrottle(limits, time.now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('somchai01', '10.0.0.1')).toBe(0);
      throttle.failed('somchai01', '10.0.0.1');
      time.advance(1000);
    }
    expect(throttle.retryAfter('SOMCHAI01', '10.0.0.9')).toBe(57); // same account, any address, any case
    time.advance(57_000);
    expect(throttle.retryAfter('somchai01', '10.0.0.1')).toBe(0);
  });

  it('refuses an address that tries many accounts', () => {
    const throttle = new LoginThrottle(limits, clock().now);
    for (let i = 0; i < 5; i++) throttle.failed(`user${i}`, '10.0.0.2');
    expect(throttle.retryAfter('someone-else', '10.0.0.2')).toBeGreaterThan(0);
    expect(throttle.retryAfter('someone-else', '10.0.0.3')).toBe(0);
  });

  it("forgets an account's failures once it signs in", () => {
    const throttle = new LoginThrottle(limits, clock().now);
    for (let i = 0; i < 2; i++) throttle.failed('somchai01', '10.0.0.1');
    throttle.succeeded('somchai01');
    throttle.failed('somchai01', '10.0.0.1');
    throttle.failed('somchai01', '10.0.0.1');
    expect(throttle.retryAfter('somchai01', '10.0.0.4')).toBe(0);
  });
});
