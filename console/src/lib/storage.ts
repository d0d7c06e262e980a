import type { SignedInPartner } from '@portal/contracts/accounts/login.contract';
import { type Role, roles } from '@portal/contracts/accounts/roles';

/**
 * What the console keeps in the browser (spec 000 section 3): token, user, theme, lang. The token
 * also travels as an httpOnly cookie; the server never trusts the stored user's role.
 */
export type Theme = 'light' | 'dark';
export type Lang = 'en' | 'th';
export type StoredUser = Omit<SignedInPartner, 'token' | 'profile_img' | '_id'> & { id: string };

export const storedLang = (): Lang => (localStorage.getItem('lang') === 'th' ? 'th' : 'en');
export const storedTheme = (): Theme => (localStorage.getItem('theme') === 'dark' ? 'dark' : 'light');

export function saveLang(lang: Lang) {
  localStorage.setItem('lang', lang);
}
export function saveTheme(theme: Theme) {
  localStorage.setItem('theme', theme);
}

export const storedToken = () => localStorage.getItem('token');

/**
 * The stored user's text fields (saveSession keeps SignedInPartner's, less the token, the image
 * and _id, which becomes id). Checked by hand when the console opens, not with the contract's
 * schema: the sign-in page then loads no schema library (zod is a quarter of its JavaScript).
 */
const TEXT_FIELDS = [
  'id',
  'title',
  'fullName',
  'username',
  'status',
  'personalPhone',
  'personalEmail',
] as const satisfies readonly (keyof StoredUser)[];
// Every field is checked: a field added to the contract fails to compile here until it is.
const everyFieldChecked: [Exclude<keyof StoredUser, (typeof TEXT_FIELDS)[number] | 'partnerId' | 'role'>] extends [
  never,
]
  ? true
  : false = true;
void everyFieldChecked;

/** The stored user's fields, when each holds what saveSession wrote; null when one does not. */
function checkedUser(value: unknown): StoredUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const user = value as Record<string, unknown>;
  const { partnerId, role } = user;
  if (!TEXT_FIELDS.every((field) => typeof user[field] === 'string')) return null;
  if (partnerId !== null && typeof partnerId !== 'string') return null;
  if (!roles.includes(role as Role)) return null;
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, user[field] as string]));
  return { ...(text as Pick<StoredUser, (typeof TEXT_FIELDS)[number]>), partnerId, role: role as Role };
}

/** The stored user, or null when there is none or it is not valid (then the caller signs out). */
export function storedUser(): StoredUser | null | 'invalid' {
  const raw = localStorage.getItem('user');
  if (!raw || !storedToken()) return null;
  try {
    return checkedUser(JSON.parse(raw)) ?? 'invalid';
  } catch {
    return 'invalid';
  }
}

/** Keeps the sign-in answer: the user takes its id from _id, and the profile image is dropped. */
export function saveSession(partner: SignedInPartner): StoredUser {
  const { token, _id, profile_img: _image, ...rest } = partner;
  const user: StoredUser = { id: _id, ...rest };
  localStorage.setItem('token', token);
  localStorage.setItem('user', JSON.stringify(user));
  return user;
}

/** Sign-out clears all browser storage (spec 000 section 4). */
export function clearStorage() {
  localStorage.clear();
  sessionStorage.clear();
}
