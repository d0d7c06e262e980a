import { SignedInPartner } from '@portal/contracts/accounts/login.contract';

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

/** The stored user, or null when there is none or it is not valid (then the caller signs out). */
export function storedUser(): StoredUser | null | 'invalid' {
  const raw = localStorage.getItem('user');
  if (!raw || !storedToken()) return null;
  try {
    const parsed = SignedInPartner.omit({ token: true, profile_img: true, _id: true })
      .extend({ id: SignedInPartner.shape._id })
      .safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : 'invalid';
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
