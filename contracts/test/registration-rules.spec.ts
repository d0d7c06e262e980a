import { describe, expect, it } from 'vitest';
import { translate } from '../src/rules/messages.ts';
import { personalId, thaiIdChecksumValid } from '../src/rules/registration.ts';

const firstMessage = (value: unknown) => {
  const result = personalId.safeParse(value);
  return result.success ? null : translate(result.error.issues[0]!.message, 'th');
};

describe('the national id rule', () => {
  it('accepts ids whose last digit checks the first twelve', () => {
    expect(thaiIdChecksumValid('1101700000001')).toBe(true);
    expect(thaiIdChecksumValid('1234567890121')).toBe(true); // the example every Thai developer knows
  });

  it('refuses a mistyped digit or two swapped digits, with its own message', () => {
    expect(thaiIdChecksumValid('1101700000002')).toBe(false);
    expect(thaiIdChecksumValid('1011700000001')).toBe(false);
    expect(firstMessage('1101700000002')).toBe('เลขบัตรประชาชนไม่ถูกต้อง กรุณาตรวจสอบอีกครั้ง');
  });

  it("checks in the spec's order: required, 13 digits, digits only, then the check digit", () => {
    expect(firstMessage('')).toBe('กรุณากรอกเลขบัตรประชาชน');
    expect(firstMessage('123')).toBe('ต้องกรอกเลขบัตรประชาชน 13 หลัก');
    expect(firstMessage('12345678901a3')).toBe('กรุณากรอกเฉพาะตัวเลขเท่านั้น');
    expect(firstMessage('1101700000001')).toBeNull();
  });
});
