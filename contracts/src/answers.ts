import { z } from 'zod';
import { refusalReasons } from './attendance/attendance.events.ts';
import { courseStatuses } from './courses/course.events.ts';

/**
 * What command routes answer, declared on each route (fastify checks every answer against it) and
 * imported by the console, so neither side retypes the other.
 */

/** A command done: its message in the caller's language and where its events stand in the log. */
export const Done = z.object({ success: z.literal(true), message: z.string(), position: z.number() });

/** POST /api/admin/createcourse(s): the new course's id and what was saved. */
export const CourseCreated = Done.extend({
  _id: z.string(),
  course: z.object({
    _id: z.string(),
    courseTopic: z.string(),
    courseDescription: z.string(),
    maxPeople: z.number(),
    status: z.enum(courseStatuses),
  }),
});

/** A registration or an account an admin created (201): the new account's id. */
export const Registered = Done.extend({ _id: z.string() });

/** PUT /api/members/change-password/{id}: the caller's new session token (the cookie is replaced too). */
export const PasswordChanged = Done.extend({ token: z.string() });

/** POST /api/members/uploadprofile/{id}: where the photo is served from (saved with the profile). */
export const PhotoUploaded = z.object({ success: z.literal(true), message: z.string(), imageUrl: z.string() });

/** POST /api/contact (201) and POST /api/emails: the message's id; an e-mail also says how it went out. */
export const MessageSent = Done.extend({ _id: z.string(), transport: z.enum(['smtp', 'outbox']).optional() });

/** POST /api/emails when the SMTP server refused it (502): recorded, with a title for the dialog. */
export const EmailRefused = z.object({
  success: z.literal(false),
  title: z.string(),
  message: z.string(),
  _id: z.string(),
  position: z.number(),
});

/** POST /api/logout. */
export const SignedOut = z.object({ success: z.literal(true) });

/** PUT /api/admin/courses/{id}/uploadImage: where the image is served from. */
export const ImageSaved = Done.extend({ imageUrl: z.string() });

/** POST /api/admin/courses/{id}/assistants: who was added. */
export const AssistantSaved = Done.extend({ assistantId: z.string() });

/** A round as the schedule calls answer it: its number is its place in time among the course's rounds. */
export const RoundSaved = Done.extend({
  round: z.object({
    _id: z.string(),
    roundNumber: z.number(),
    roundStartTime: z.string(),
    roundEndTime: z.string(),
  }),
});

/** A refusal as the one error handler words it: the message, and any field messages. */
export const Refusal = z.looseObject({ success: z.literal(false), message: z.string() });

/** PUT /api/admin/updateround/{roundId}: accepted (200), or refused (404 nobody matched, 409 otherwise). */
export const ScanAnswer = z.object({
  success: z.boolean(),
  message: z.string(),
  member: z.object({ _id: z.string(), fullName: z.string().nullable() }).nullable(),
  position: z.number(),
  outcome: z.enum(['accepted', 'refused']),
  memberId: z.string().nullable(),
  scannedAt: z.string().optional(),
  late: z.boolean().optional(),
  walkIn: z.boolean().optional(),
  lateUploaded: z.boolean().optional(),
  reason: z.enum(refusalReasons).optional(),
  firstScannedAt: z.string().nullable().optional(),
});
export type ScanAnswer = z.infer<typeof ScanAnswer>;
