/**
 * Where to go after signing in, from `?next=`: a path on this portal only (never `//host` or
 * `/\host`, which browsers read as another site), else null.
 */
export function nextPage(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/** The sign-in page, asked to come back to `path` (the page a visitor was refused). */
export const signInThenBackTo = (path: string) => `/login?next=${encodeURIComponent(path)}`;
