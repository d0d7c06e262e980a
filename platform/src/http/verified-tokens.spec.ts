import { createSigner, createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { verifiedTokens } from './verified-tokens.ts';

/** A token's signature is checked once; what fails, changes or expires is checked again. */
describe('verified tokens', () => {
  const sign = createSigner({ key: 'a-secret-of-enough-length-for-hs256', expiresIn: 60_000 });
  let clock = Date.now();
  const check = createVerifier({ key: 'a-secret-of-enough-length-for-hs256' });
  let checks = 0;
  const verified = verifiedTokens(
    (token) => {
      checks++;
      return check(token);
    },
    () => clock,
  );

  it('checks a token once, and every other token on its own', () => {
    const token = sign({ sub: 'a' });
    expect(verified(token)).toMatchObject({ sub: 'a' });
    expect(verified(token)).toMatchObject({ sub: 'a' });
    expect(checks).toBe(1);
    expect(verified(sign({ sub: 'b' }))).toMatchObject({ sub: 'b' });
    expect(checks).toBe(2);
  });

  it('refuses a token changed by one character, every time', () => {
    const token = sign({ sub: 'c' });
    verified(token);
    const forged = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
    expect(() => verified(forged)).toThrow();
    expect(() => verified(forged)).toThrow();
  });

  it('checks a remembered token again once it expires', () => {
    const token = sign({ sub: 'd' });
    verified(token);
    const before = checks;
    clock += 61_000;
    verified(token);
    expect(checks).toBe(before + 1);
  });
});
