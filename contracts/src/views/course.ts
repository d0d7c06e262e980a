import { z } from 'zod';
import { SelfCheckInRules } from '../courses/course.events.ts';
import { orderParam, pageParam, pageSizeParam, sortParam, pageFields } from './query-params.ts';

/** A round as the course details show it; `active` is computed from the server's clock. */
export const RoundView = z.object({
  _id: z.string(),
  roundNumber: z.number(),
  roundStartTime: z.string(),
  roundEndTime: z.string(),
  active: z.boolean(),
  attended: z.number(),
  absent: z.number(),
});

/** A course as the list and the details show it (spec 001 section 3, Course). */
export const CourseView = z.object({
  _id: z.string(),
  courseTopic: z.string(),
  courseDescription: z.string(),
  courseImage: z.string().nullable(),
  status: z.enum(['public', 'private']),
  maxPeople: z.number(),
  creator: z.string(),
  rounds: z.array(z.string()),
  enrolled: z.number(),
  participate: z.number(),
  totalAttend: z.number(),
  totalAbsent: z.number(),
  createdAt: z.string(),
  /** How members check themselves in on the room code (issue 23). */
  selfCheckIn: SelfCheckInRules,
});
export type CourseView = z.infer<typeof CourseView>;

export const CourseQuery = z.object({
  search: z.string().trim().max(200).optional(),
  sort: sortParam(['createdAt', 'topic', 'participants', 'totalAttend', 'totalAbsent'], 'participants'),
  order: orderParam,
  page: pageParam.optional(),
  pageSize: pageSizeParam(9),
  minPosition: z.coerce.number().int().optional(),
});
export type CourseQuery = z.infer<typeof CourseQuery>;

export const CourseList = z.object({ success: z.literal(true), courses: z.array(CourseView), message: z.string() });
export const CoursePage = CourseList.extend({
  ...pageFields,
});
export const CourseDetails = z.object({
  success: z.literal(true),
  course: CourseView.extend({ rounds: z.array(RoundView) }),
  /** The server's clock when answering, so a page left open can tell when a round starts or ends. */
  serverTime: z.string(),
  message: z.string(),
});

/** Someone scanned in any round of a course (the participants modal, spec 001 section 2.5). */
export const Participant = z.object({
  _id: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type Participant = z.infer<typeof Participant>;
export const ParticipantList = z.object({
  success: z.literal(true),
  participants: z.array(Participant),
  message: z.string(),
});
