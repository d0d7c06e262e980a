/**
 * Dates as the spec shows them (spec 001 section 9): long format with 12-hour time in English,
 * the Thai calendar (Buddhist era) in Thai, and N/A when missing.
 */
export function dateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return 'N/A';
  return new Date(iso).toLocaleString(language === 'th' ? 'th-TH' : 'en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    hour12: language !== 'th',
  });
}

export function date(iso: string | null | undefined, language: string): string {
  if (!iso) return 'N/A';
  return new Date(iso).toLocaleDateString(language === 'th' ? 'th-TH' : 'en-US', { dateStyle: 'long' });
}

/** The value of a datetime-local input for an instant, in the browser's time zone (with seconds when asked). */
export function toLocalInput(iso: string, seconds = false): string {
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const minutes = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return seconds ? `${minutes}:${pad(at.getSeconds())}` : minutes;
}

/** The instant a datetime-local input's value means in the browser's time zone, or '' when empty. */
export const fromLocalInput = (value: string): string => (value ? new Date(value).toISOString() : '');

/** The browser's time zone: the overview counts days in it, and exports show their dates in it. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
