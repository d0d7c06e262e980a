/** Test data shared by every workspace's integration tests. */

import { MemberRegistered } from '@portal/contracts/accounts/account.events';
import { seal } from '../privacy/personal-data.ts';
import { thaiIdChecksumValid } from '@portal/contracts/rules/registration';
import type { Sql } from '../store/sql.ts';

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
    acceptTerms: true,
    ...overrides,
  };
}

/** A MemberRegistered event for `accountId`, its personal data sealed as the command side seals it. */
export async function memberRegisteredEvent(sql: Sql, accountId: string, overrides: Record<string, unknown> = {}) {
  const { password: _password, acceptTerms: _accepted, ...personal } = sampleMember(overrides);
  const registeredAt = new Date().toISOString();
  return MemberRegistered.create({ personal: await seal(sql, accountId, personal), registeredAt });
}

/** A valid partner registration (the whole form, as /registeradmin posts it). */
export function samplePartner(overrides: Record<string, unknown> = {}) {
  const person = sampleMember();
  const n = person.username.slice('member'.length);
  return {
    ...person,
    username: `partner${n}`,
    personalEmail: `partner${n}@example.com`,
    title: 'อื่นๆ',
    companyName: `Training Co ${n}`,
    companyTaxId: withCheckDigit(`01055${n}000`),
    companyAddress: '99 Rama IV Road',
    companyProvince: 'กรุงเทพมหานคร',
    companyDistrict: 'ปทุมวัน',
    companySubdistrict: 'ลุมพินี',
    companyPostalCode: '10330',
    companyPhone: `022${n}999`.slice(0, 10),
    companyEmail: `office${n}@training.example.com`,
    shopLatitude: '13.7307',
    shopLongitude: '100.5418',
    ...overrides,
  };
}
