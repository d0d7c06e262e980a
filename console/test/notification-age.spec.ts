import { describe, expect, it } from 'vitest';
import { ageText } from '../src/features/notifications/age.ts';

const now = Date.parse('2026-11-23T12:00:00Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe('the age of a notification (spec 001 section 9)', () => {
  it('counts seconds, minutes, hours, days under 7, weeks under 4, months under 12, then years', () => {
    const day = 86_400;
    expect(
      [30, 5 * 60, 3 * 3600, 2 * day, 6 * day, 7 * day, 27 * day, 28 * day, 200 * day, 364 * day, 400 * day].map((s) =>
        ageText(ago(s), now, 'en'),
      ),
    ).toEqual([
      '30 seconds ago',
      '5 minutes ago',
      '3 hours ago',
      '2 days ago',
      '6 days ago',
      'last week',
      '3 weeks ago',
      'last month',
      '6 months ago',
      '12 months ago',
      'last year',
    ]);
  });

  it('speaks Thai, and of the future too (a round about to start)', () => {
    expect(ageText(ago(2 * 3600), now, 'th')).toBe('2 ชั่วโมงที่ผ่านมา');
    expect(ageText(ago(-25 * 60), now, 'en')).toBe('in 25 minutes');
  });
});
