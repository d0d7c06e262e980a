/** Test data shared by every workspace's integration tests. */

import { thaiIdChecksumValid } from '../rules/registration.ts';

/** Completes twelve digits into a valid Thai national id. */
export function withCheckDigit(first12: string): string {
  const id = [...'0123456789'].map((digit) => first12 + digit).find(thaiIdChecksumValid);
  if (!id) throw new Error(`no check digit for ${first12}`);
  return id;
}

let counter = 0;
/** A valid registration whose unique fields differ from every other one this run makes. */
export function sampleMember(overrides: Record<string, unknown> = {}) {
  counter++;
  const n = String(counter).padStart(4, '0');
  return {
    username: `member${n}`,
    password: 'password-123',
    title: 'นาย',
    fullName: `Somchai Test ${n}`,
    personalId: withCheckDigit(`11017000${n}`),
    personalPhone: `081234${n}`,
    personalEmail: `Member${n}@Example.com`,
    personalAddress: '1 Sukhumvit Road',
    personalProvince: 'กรุงเทพมหานคร',
    personalDistrict: 'วัฒนา',
    personalSubdistrict: 'คลองเตยเหนือ',
    personalPostalCode: '10110',
    ...overrides,
  };
}
