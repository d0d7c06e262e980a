import { z } from 'zod';
import { CourseView } from './course.ts';
import { RoundDetails } from './round.ts';

/**
 * A round on the partner's home, open now (`active`, as on the round page) or starting within
 * the week, with its course's enrolment.
 */
export const PartnerRound = RoundDetails.shape.round
  .pick({
    _id: true,
    courseId: true,
    courseTopic: true,
    roundNumber: true,
    roundStartTime: true,
    roundEndTime: true,
    active: true,
    attended: true,
  })
  .extend({ enrolled: z.number() });
export type PartnerRound = z.infer<typeof PartnerRound>;

/**
 * The partner's home (/partner): the courses they created, the rounds they are about to run, and
 * how those courses are attended. Spec 000 names the route only; this is what an instructor
 * landing after sign-in needs first.
 */
export const PartnerHome = z.object({
  success: z.literal(true),
  summary: z.object({
    courses: z.number(),
    /** Different members enrolled in any of the courses. */
    members: z.number(),
    /** Rounds open now or starting within the next seven days. */
    upcomingRounds: z.number(),
    /** Attended over expected in the rounds that have ended, a rounded percent; null before any. */
    attendanceRate: z.number().nullable(),
  }),
  /** Open now first, then the soonest; at most eight. */
  rounds: z.array(PartnerRound),
  /** Newest first; at most fifty (the course list has them all). */
  courses: z.array(CourseView),
  serverTime: z.string(),
  message: z.string(),
});
