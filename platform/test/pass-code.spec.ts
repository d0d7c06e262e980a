import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASS_WINDOW_MS } from '@portal/contracts/attendance/pass-code';
import { passChecker } from '@portal/contracts/attendance/pass-check';
import { passKeysFor } from '@portal/platform/attendance/pass-keys';

const keys = passKeysFor('a-secret-of-the-server');
const member = '0123456789abcdef01234567';
const t0 = Date.parse('2026-11-23T09:00:10.000Z');

describe('attendance pass codes (Ed25519)', () => {
  it('reads a fresh code as the member, in its own window and the next, and not after', () => {
    const { code, expiresAt } = keys.issue(member, t0);
    expect(Date.parse(expiresAt)).toBeGreaterThan(t0);
    expect(Date.parse(expiresAt) - t0).toBeLessThanOrEqual(PASS_WINDOW_MS);
    expect(keys.read(code, t0)).toEqual({ kind: 'pass', memberId: member, authentic: true, fresh: true });
    expect(keys.read(code, t0 + PASS_WINDOW_MS)).toMatchObject({ fresh: true });
    expect(keys.read(code, t0 + 2 * PASS_WINDOW_MS)).toMatchObject({ authentic: true, fresh: false });
    expect(keys.read(code, t0 - PASS_WINDOW_MS)).toMatchObject({ authentic: true, fresh: false });
  });

  it('knows a forged or altered code, and takes anything else as a plain id or username', () => {
    const { code } = keys.issue(member, t0);
    const otherMember = code.replace(member, 'ffffffffffffffffffffffff');
    expect(keys.read(otherMember, t0)).toMatchObject({ authentic: false });
    expect(passKeysFor('another-secret').read(code, t0)).toMatchObject({ authentic: false });
    const laterWindow = code.replace(
      `.${Math.floor(t0 / PASS_WINDOW_MS)}.`,
      `.${Math.floor(t0 / PASS_WINDOW_MS) + 1}.`,
    );
    expect(keys.read(laterWindow, t0 + PASS_WINDOW_MS)).toMatchObject({ authentic: false, fresh: true });
    expect(keys.read(`${code.slice(0, -2)}AA`, t0)).toMatchObject({ authentic: false });
    // The last character carries 4 unused bits: changing only those must not give a second valid spelling.
    const last = code.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = `${code.slice(0, -1)}${alphabet[alphabet.indexOf(last) + 1]}`;
    expect(keys.read(twin, t0)).toMatchObject({ authentic: false });
    expect(keys.read('somchai01', t0)).toEqual({ kind: 'plain', value: 'somchai01' });
  });

  it('is checked the same by a scanner alone, holding only the public key', () => {
    const check = passChecker(keys.publicKey)!;
    const { code } = keys.issue(member, t0);
    expect(check(code, t0)).toEqual(keys.read(code, t0));
    expect(check(code, t0 + 3 * PASS_WINDOW_MS)).toMatchObject({ authentic: true, fresh: false });
    expect(passChecker(passKeysFor('another-secret').publicKey)!(code, t0)).toMatchObject({ authentic: false });
    expect(passChecker('not-a-key')).toBeNull();
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('never throws on hostile text, and never reads it as authentic', () => {
    const check = passChecker(keys.publicKey)!;
    const hostile = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc
        .tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }))
        .map(([a, b, c]) => `P2.${a}.${b}.${c}`),
      fc.constantFrom('P2...', 'P2.\u0000.1.\uD800', `P2.${member}.-1.x`, `P2.${member}.1e9.${'A'.repeat(86)}`),
    );
    fc.assert(
      fc.property(hostile, (input) => {
        expect(keys.read(input, t0)).not.toMatchObject({ authentic: true });
        expect(check(input, t0)).not.toMatchObject({ authentic: true });
      }),
      { numRuns: 300 },
    );
  });
});
