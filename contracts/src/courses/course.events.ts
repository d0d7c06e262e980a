import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/** A course, its rounds and its enrolments live in one stream `course-<id>`, so capacity is decided in one place. */
export const courseStream = (courseId: string) => `course-${courseId}`;
export const courseIdOf = (streamId: string) => streamId.slice('course-'.length);

const at = z.iso.datetime({ offset: true });
export const courseStatuses = ['public', 'private'] as const;
export type CourseStatus = (typeof courseStatuses)[number];

const details = {
  courseTopic: z.string(),
  courseDescription: z.string(),
  maxPeople: z.number().int().min(0),
  status: z.enum(courseStatuses),
};

export const CourseCreated = defineEvent('CourseCreated', z.object({ ...details, creator: z.string(), createdAt: at }));
export const CourseUpdated = defineEvent(
  'CourseUpdated',
  z.object({
    courseTopic: details.courseTopic,
    courseDescription: details.courseDescription,
    maxPeople: details.maxPeople,
    updatedAt: at,
  }),
);
export const CourseStatusChanged = defineEvent(
  'CourseStatusChanged',
  z.object({ status: details.status, changedAt: at }),
);
export const CourseImageChanged = defineEvent('CourseImageChanged', z.object({ imageUrl: z.string(), changedAt: at }));
export const CourseDeleted = defineEvent('CourseDeleted', z.object({ deletedAt: at }));

const round = { roundId: z.string(), roundStartTime: at, roundEndTime: at };
export const RoundScheduled = defineEvent('RoundScheduled', z.object({ ...round, scheduledAt: at }));
export const RoundRescheduled = defineEvent('RoundRescheduled', z.object({ ...round, rescheduledAt: at }));
export const RoundCancelled = defineEvent('RoundCancelled', z.object({ roundId: z.string(), cancelledAt: at }));

/** `walkIn`: enrolled by the scanner at the door (`enrolledBy`), not by the member. */
export const MemberEnrolled = defineEvent(
  'MemberEnrolled',
  z.object({ memberId: z.string(), enrolledAt: at, walkIn: z.boolean().optional(), enrolledBy: z.string().optional() }),
);
export const MemberUnenrolled = defineEvent('MemberUnenrolled', z.object({ memberId: z.string(), unenrolledAt: at }));

/**
 * A scan-only assistant of the course (issue 18): an approved member or partner the course's
 * creator (or an admin) lets open the course's rounds and scan, and nothing else.
 */
export const AssistantAdded = defineEvent(
  'AssistantAdded',
  z.object({ assistantId: z.string(), addedBy: z.string(), addedAt: at }),
);
export const AssistantRemoved = defineEvent(
  'AssistantRemoved',
  z.object({ assistantId: z.string(), removedBy: z.string(), removedAt: at }),
);

/**
 * How members may check themselves in to the course's rounds on the room code (issue 23): where
 * they must be (a point and a radius in metres; null: anywhere), and whether one device may check
 * in only one member per round. Set by the creator or an admin; the latest holds.
 */
export const SelfCheckInRules = z.object({
  location: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      radiusMetres: z.number().int().min(10).max(5000),
    })
    .nullable(),
  onePerDevice: z.boolean(),
});
export type SelfCheckInRules = z.output<typeof SelfCheckInRules>;
export const NO_SELF_CHECK_IN_RULES: SelfCheckInRules = { location: null, onePerDevice: false };

export const SelfCheckInConfigured = defineEvent(
  'SelfCheckInConfigured',
  SelfCheckInRules.extend({ configuredBy: z.string(), configuredAt: at }),
);

export const courseEvents = [
  CourseCreated,
  CourseUpdated,
  CourseStatusChanged,
  CourseImageChanged,
  CourseDeleted,
  RoundScheduled,
  RoundRescheduled,
  RoundCancelled,
  MemberEnrolled,
  MemberUnenrolled,
  AssistantAdded,
  AssistantRemoved,
  SelfCheckInConfigured,
] as const;

export const decodeCourseEvent = createDecoder(courseEvents);
export type CourseEvent = NonNullable<ReturnType<typeof decodeCourseEvent>>;
