import { z } from 'zod';

/** One of the member's rounds that counts toward their attendance rate (spec 001 section 3). */
export const AttendanceEntry = z.object({
  roundId: z.string(),
  roundNumber: z.number(),
  date: z.string(),
  status: z.enum(['Attended', 'Absent']),
  late: z.boolean(),
  scannedAt: z.string().nullable(),
});

/**
 * A course on the member's dashboard: the spec's course report item, from real data only. The
 * old product's quizScore, averageRating and reviewsCount are left out: the portal keeps no
 * quizzes or reviews, and a made-up figure would be worse than none.
 */
export const MemberCourse = z.object({
  _id: z.string(),
  courseTopic: z.string(),
  courseImage: z.string().nullable(),
  courseDescription: z.string(),
  /** Rounds attended over the course's rounds, 0 to 100. */
  progress: z.number(),
  status: z.enum(['Completed', 'In Progress', 'Upcoming']),
  totalLessons: z.number(),
  completedLessons: z.number(),
  /** Rounds that have ended (or that the member came to): what the attendance rate is over. */
  heldLessons: z.number(),
  instructor: z.string(),
  instructorName: z.string().nullable(),
  enrolled: z.boolean(),
  upcomingRound: z.object({ _id: z.string(), date: z.string(), roundNumber: z.number() }).nullable(),
  userAttendance: z.array(AttendanceEntry),
});
export type MemberCourse = z.infer<typeof MemberCourse>;

export const UpcomingRound = z.object({
  _id: z.string(),
  courseId: z.string(),
  courseTopic: z.string(),
  roundNumber: z.number(),
  date: z.string(),
  endsAt: z.string(),
});

export const MemberReport = z.object({
  success: z.literal(true),
  course: z.array(MemberCourse),
  summary: z.object({
    enrolledCourses: z.number(),
    upcomingRounds: z.number(),
    /** Attended entries over all entries, a rounded percent; null before any round was held. */
    attendanceRate: z.number().nullable(),
    completedCourses: z.number(),
    totalCourses: z.number(),
  }),
  /** The next three rounds of the member's courses, soonest first. */
  upcoming: z.array(UpcomingRound),
  serverTime: z.string(),
  message: z.string(),
});

/** An IANA time zone name (Asia/Bangkok), as the browser reports its own. */
export const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'report.timeZone');

export const OverviewQuery = z.object({
  days: z.coerce.number('report.days').int('report.days').min(1, 'report.days').max(366, 'report.days').default(30),
  /** Days are counted in this zone (the browser's), so "today" is the admin's today. */
  tz: timeZone.default('UTC'),
  minPosition: z.coerce.number().int().optional(),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

export const Overview = z.object({
  success: z.literal(true),
  from: z.string(),
  to: z.string(),
  days: z.number(),
  members: z.array(z.object({ role: z.string(), status: z.string(), count: z.number() })),
  /** Courses by status, and the rounds that started in the period. */
  courses: z.object({ public: z.number(), private: z.number(), rounds: z.number() }),
  scansPerDay: z.array(z.object({ day: z.string(), accepted: z.number(), refused: z.number(), voided: z.number() })),
  courseRates: z.array(
    z.object({
      _id: z.string(),
      courseTopic: z.string(),
      attended: z.number(),
      absent: z.number(),
      rate: z.number(),
    }),
  ),
  busiestRounds: z.array(
    z.object({
      _id: z.string(),
      courseId: z.string(),
      courseTopic: z.string(),
      roundStartTime: z.string(),
      attended: z.number(),
    }),
  ),
  message: z.string(),
});
export type Overview = z.infer<typeof Overview>;
