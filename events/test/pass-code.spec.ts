import { describe, expect, it } from 'vitest';
import { PASS_WINDOW_MS, passCode, readPassCode } from '../src/attendance/pass-code.ts';

const secret = 'a-secret-of-the-server';
const member = '0123456789abcdef01234567';
const t0 = Date.parse('2026-11-23T09:00:10.000Z');

describe('attendance pass codes', () => {
  it('reads a fresh code as the member, in its own window and the next, and not after', () => {
    const { code, expiresAt } = passCode(secret, member, t0);
    expect(Date.parse(expiresAt)).toBeGreaterThan(t0);
    expect(readPassCode(secret, code, t0)).toEqual({ kind: 'pass', memberId: member, authentic: true, fresh: true });
    expect(readPassCode(secret, code, t0 + PASS_WINDOW_MS)).toMatchObject({ fresh: true });
    expect(readPassCode(secret, code, t0 + 2 * PASS_WINDOW_MS)).toMatchObject({ authentic: true, fresh: false });
  });

  it('knows a forged or altered code, and takes anything else as a plain id or username', () => {
    const { code } = passCode(secret, member, t0);
    const otherMember = code.replace(member, 'ffffffffffffffffffffffff');
    expect(readPassCode(secret, otherMember, t0)).toMatchObject({ authentic: false });
    expect(readPassCode('another-secret', code, t0)).toMatchObject({ authentic: false });
    expect(readPassCode(secret, `${code.slice(0, -1)}A`, t0)).toMatchObject({ authentic: false });
    expect(readPassCode(secret, 'somchai01', t0)).toEqual({ kind: 'plain', value: 'somchai01' });
  });
});
