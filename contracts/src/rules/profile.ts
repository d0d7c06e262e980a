import { z } from 'zod';
import type { MessageKey } from './messages.ts';
import { multiLineText, singleLineText } from './text.ts';
import { partnerTitles } from './registration.ts';

/**
 * The account settings rules (spec 000 section 5, "Profile save" and "Password change"), for
 * server and console. The spec's English messages are kept; the Thai ones are ours.
 */
const key = (messageKey: MessageKey) => messageKey;
const optional = (max: number, lines: 'single' | 'multi' = 'single') =>
  (lines === 'single' ? singleLineText : multiLineText)(key('value.invalid'))
    .trim()
    .max(max, key('text.tooLong'))
    .default('');
const required = (max: number) =>
  singleLineText(key('profile.required')).trim().min(1, key('profile.required')).max(max, key('text.tooLong'));

/** Where uploaded profile photos are served; a profile may only point at its own. */
export const profileImagePattern = /^\/uploads\/profiles\/([0-9a-f]{24})\/[0-9a-f-]{36}\.webp$/;

/** PUT /api/members/profile/{id}: national id and username are not changed here. */
export const ProfileUpdate = z.object({
  title: z.union([z.enum(partnerTitles, { error: key('option.invalid') }), z.literal('')]).default(''),
  fullName: required(200),
  personalPhone: required(10).pipe(
    z.string().regex(/^\d*$/, key('profile.phoneDigits')).length(10, key('personalPhone.length')),
  ),
  personalEmail: required(254).pipe(z.email(key('profile.emailInvalid')).transform((value) => value.toLowerCase())),
  personalAddress: optional(500, 'multi'),
  personalProvince: optional(100),
  personalDistrict: optional(100),
  personalSubdistrict: optional(100),
  personalPostalCode: optional(10),
  profile_img: z
    .union([z.string().regex(profileImagePattern, key('image.invalid')), z.literal(''), z.null()])
    .default(null)
    .transform((value) => value || ''),
});
export type ProfileUpdate = z.output<typeof ProfileUpdate>;

const passwordField = z.string({ error: key('password.allRequired') }).min(1, key('password.allRequired'));

const passwords = {
  currentPassword: passwordField,
  newPassword: passwordField.pipe(z.string().min(6, key('password.newMin')).max(128, key('text.tooLong'))),
};
const confirmationMatches = (form: { newPassword: string; confirmNewPassword?: string }) =>
  form.confirmNewPassword === undefined || form.confirmNewPassword === form.newPassword;
const mismatch = { path: ['confirmNewPassword'], message: key('password.mismatch') };

/** PUT /api/members/change-password/{id}; the confirmation is checked when it is sent. */
export const PasswordChange = z
  .object({ ...passwords, confirmNewPassword: passwordField.optional() })
  .refine(confirmationMatches, mismatch);

/** The console's password form, where the confirmation is required. */
export const PasswordForm = z
  .object({ ...passwords, confirmNewPassword: passwordField })
  .refine(confirmationMatches, mismatch);

/**
 * POST /api/password/set: a new password from a link sent by e-mail (an account an admin created
 * or imported, issue 23), with its confirmation; the link's token says whose.
 */
export const PasswordSetByLink = z
  .object({
    token: singleLineText(key('passwordLink.invalid'))
      .trim()
      .min(1, key('passwordLink.invalid'))
      .max(600, key('passwordLink.invalid')),
    newPassword: passwords.newPassword,
    confirmNewPassword: passwordField,
  })
  .refine(confirmationMatches, mismatch);
export type PasswordSetByLink = z.output<typeof PasswordSetByLink>;
