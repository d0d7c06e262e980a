import type { MemberCourse } from '../api/get-member-report.ts';

export interface TrendPoint {
  date: string;
  rate: number;
  attended: number;
  held: number;
}

/**
 * The member's attendance over time: after each round held (in time order, across courses), the
 * share of rounds so far that they attended. Real entries only; no entries, no line.
 */
export function attendanceTrend(courses: readonly MemberCourse[]): TrendPoint[] {
  const entries = courses
    .flatMap((course) => course.userAttendance)
    .sort((a, b) => a.date.localeCompare(b.date) || a.roundId.localeCompare(b.roundId));
  let attended = 0;
  return entries.map((entry, index) => {
    if (entry.status === 'Attended') attended += 1;
    const held = index + 1;
    return { date: entry.date, attended, held, rate: Math.round((100 * attended) / held) };
  });
}
