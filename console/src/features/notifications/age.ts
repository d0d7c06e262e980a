/**
 * The spec's age text (spec 001 section 9): seconds, minutes, hours, days under 7, weeks under 4,
 * months under 12, then years, in the reader's language (Intl.RelativeTimeFormat).
 */
export function ageText(iso: string, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language === 'th' ? 'th' : 'en', { numeric: 'auto' });
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const size = Math.abs(seconds);
  const days = size / 86_400;
  // Whole units, at least one: 28 days is "last month", not "this month".
  const whole = (unitSeconds: number) => Math.sign(seconds) * Math.max(1, Math.trunc(size / unitSeconds));
  if (size < 60) return format.format(seconds, 'second');
  if (size < 3600) return format.format(whole(60), 'minute');
  if (size < 86_400) return format.format(whole(3600), 'hour');
  if (days < 7) return format.format(whole(86_400), 'day');
  if (days < 28) return format.format(whole(7 * 86_400), 'week');
  if (days < 365) return format.format(whole(30 * 86_400), 'month');
  return format.format(whole(365 * 86_400), 'year');
}
