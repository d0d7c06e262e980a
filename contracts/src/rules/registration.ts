import { z } from 'zod';
import type { MessageKey } from './messages.ts';
import { multiLineText, singleLineText } from './text.ts';

/**
 * The registration rules of spec 000 section 5, written once for server and console.
 * Each issue's message is a key of ./messages.ts; checks run in the spec's order, and the first
 * failing check of a field is the one shown.
 */
const key = (messageKey: MessageKey) => messageKey;
const thaiLetters = /[\u0E00-\u0E7F]/;
const digitsOnly = /^\d*$/;

/** A string field that must be filled in: anything but a non-empty string gets `required`. */
const requiredText = (required: MessageKey, lines: 'single' | 'multi' = 'single') =>
  (lines === 'single' ? singleLineText : multiLineText)(key(required)).trim().min(1, key(required));

const optionalText = (max: number, lines: 'single' | 'multi' = 'single') =>
  (lines === 'single' ? singleLineText : multiLineText)(key('value.invalid'))
    .trim()
    .max(max, key('text.tooLong'))
    .default('');

export const memberTitles = ['นาย', 'นาง', 'นางสาว'] as const;
export const partnerTitles = ['นาย', 'นาง', 'นางสาว', 'อื่นๆ'] as const;

export const username = requiredText('username.required').pipe(
  z.string().min(6, key('username.min')).max(50, key('text.tooLong')),
);
export const password = z
  .string({ error: key('password.required') })
  .min(1, key('password.required'))
  .min(8, key('password.min'))
  .max(128, key('text.tooLong'))
  .refine((value) => !thaiLetters.test(value), key('password.thai'));

const fixedDigits = (required: MessageKey, length: MessageKey, size: number) =>
  requiredText(required).pipe(z.string().length(size, key(length)).regex(digitsOnly, key('digits.only')));

/**
 * The Thai national id's last digit checks the first twelve: the digits weighted 13 down to 2,
 * summed; the check digit is (11 - sum mod 11) mod 10.
 */
export function thaiIdChecksumValid(id: string): boolean {
  if (!/^\d{13}$/.test(id)) return false;
  const sum = [...id.slice(0, 12)].reduce((total, digit, index) => total + Number(digit) * (13 - index), 0);
  return (11 - (sum % 11)) % 10 === Number(id[12]);
}

export const personalId = fixedDigits('personalId.required', 'personalId.length', 13).refine(
  thaiIdChecksumValid,
  key('personalId.checksum'),
);
export const personalPhone = fixedDigits('personalPhone.required', 'personalPhone.length', 10);
export const personalEmail = requiredText('personalEmail.required').pipe(
  z
    .email(key('personalEmail.invalid'))
    .max(254, key('text.tooLong'))
    .transform((value) => value.toLowerCase()),
);

const address = {
  personalAddress: optionalText(500, 'multi'),
  personalProvince: optionalText(100),
  personalDistrict: optionalText(100),
  personalSubdistrict: optionalText(100),
  personalPostalCode: optionalText(10),
};

/** A member account's fields, as an admin fills them in on /addemployee. */
export const MemberRegistration = z.object({
  username,
  password,
  title: z.union([z.enum(memberTitles, { error: key('option.invalid') }), z.literal('')]).default(''),
  fullName: optionalText(200),
  personalId,
  personalPhone,
  personalEmail,
  ...address,
});
export type MemberRegistration = z.output<typeof MemberRegistration>;

/** The terms checkbox: registering yourself means agreeing to the terms and the privacy notice. */
const acceptTerms = z.literal(true, { error: key('terms.required') });

/** POST /api/members/register (spec 000 section 3, member registration payload, plus consent). */
export const MemberSelfRegistration = MemberRegistration.extend({ acceptTerms });

const chosen = (required: MessageKey) => requiredText(required).pipe(z.string().max(100, key('text.tooLong')));

/** A coordinate typed as text or sent as a number, with any decimals, within `limit` degrees. */
const coordinate = (required: MessageKey, invalid: MessageKey, limit: number) =>
  z
    .union([z.number(), singleLineText().trim()], { error: key(required) })
    .refine((value) => value !== '', key(required))
    .transform((value) => Number(value))
    .refine((value) => Number.isFinite(value) && Math.abs(value) <= limit, key(invalid));

/**
 * POST /api/partners/register: everything starred on the partner form is required (spec 000
 * section 5). The province, district and subdistrict ids the form also posts are ignored.
 */
export const PartnerRegistration = z.object({
  username,
  password,
  title: z.enum(partnerTitles, { error: key('title.required') }),
  fullName: requiredText('fullName.required').pipe(z.string().max(200, key('text.tooLong'))),
  personalId,
  personalPhone,
  personalEmail,
  personalAddress: requiredText('address.required', 'multi').pipe(z.string().max(500, key('text.tooLong'))),
  personalProvince: chosen('province.required'),
  personalDistrict: chosen('district.required'),
  personalSubdistrict: chosen('subdistrict.required'),
  personalPostalCode: optionalText(10),
  companyName: requiredText('companyName.required').pipe(z.string().max(200, key('text.tooLong'))),
  companyTaxId: fixedDigits('companyTaxId.required', 'companyTaxId.length', 13).refine(
    thaiIdChecksumValid,
    key('companyTaxId.checksum'),
  ),
  companyAddress: requiredText('address.required', 'multi').pipe(z.string().max(500, key('text.tooLong'))),
  companyProvince: chosen('province.required'),
  companyDistrict: chosen('district.required'),
  companySubdistrict: chosen('subdistrict.required'),
  companyPostalCode: optionalText(10),
  companyPhone: fixedDigits('personalPhone.required', 'personalPhone.length', 10),
  companyEmail: personalEmail,
  shopLatitude: coordinate('latitude.required', 'latitude.invalid', 90),
  shopLongitude: coordinate('longitude.required', 'longitude.invalid', 180),
  acceptTerms,
});
export type PartnerRegistration = z.output<typeof PartnerRegistration>;

/** The fields that must be unique among accounts, as the duplicate answers flag them. */
export const uniqueFields = ['username', 'personalId', 'personalPhone', 'personalEmail'] as const;
export const partnerUniqueFields = [...uniqueFields, 'companyTaxId', 'companyEmail'] as const;
export type UniqueField = (typeof partnerUniqueFields)[number];

/** The Thai labels the partner duplicate answer lists in `conflicts` (spec 000 section 7). */
export const conflictLabels: Record<UniqueField, string> = {
  username: 'ชื่อผู้ใช้',
  personalId: 'เลขบัตรประชาชน',
  personalPhone: 'เบอร์โทรศัพท์',
  personalEmail: 'อีเมล',
  companyTaxId: 'เลขประจำตัวผู้เสียภาษี',
  companyEmail: 'อีเมลบริษัท',
};

export const LoginRequest = z.object({
  username: requiredText('login.required'),
  password: z.string({ error: key('login.required') }).min(1, key('login.required')),
});

export const RegistrationStatusChange = z.object({
  status: z.enum(['approved', 'rejected'], { error: key('status.invalid') }),
});
