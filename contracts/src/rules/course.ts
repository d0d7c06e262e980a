import { z } from 'zod';
import { courseStatuses } from '../courses/course.events.ts';
import type { MessageKey } from './messages.ts';
import { multiLineText, singleLineText } from './text.ts';

/** The course form's rules (spec 001 sections 5 and 9), for server and console. */
const key = (messageKey: MessageKey) => messageKey;

export const courseTopic = singleLineText(key('course.topicRequired'))
  .trim()
  .min(1, key('course.topicRequired'))
  .max(100, key('course.topicTooLong'));
export const courseDescription = multiLineText(key('course.descriptionRequired'))
  .trim()
  .min(1, key('course.descriptionRequired'))
  .max(1000, key('course.descriptionTooLong'));
/** 0 means unlimited; sent as a number or as the text of one. */
export const maxPeople = z.coerce
  .number({ error: key('course.maxPeopleInvalid') })
  .int(key('course.maxPeopleInvalid'))
  .min(0, key('course.maxPeopleInvalid'))
  .max(100_000, key('course.maxPeopleInvalid'));
export const courseStatus = z.enum(courseStatuses, { error: key('course.statusInvalid') });

/** POST /api/admin/createcourse and /createcourses; `creator` is taken from the session, not the body. */
export const CourseCreation = z.object({
  courseTopic,
  courseDescription,
  maxPeople: maxPeople.default(0),
  status: courseStatus.default('private'),
});

/**
 * PUT /api/admin/updatecourses/{id}: the text update (topic and description together, max
 * participants kept when left out), or the status alone (the spec's toggle).
 */
export const CourseUpdate = z
  .object({
    courseTopic: courseTopic.optional(),
    courseDescription: courseDescription.optional(),
    maxPeople: maxPeople.optional(),
    status: courseStatus.optional(),
  })
  .superRefine((update, context) => {
    const textUpdate = [update.courseTopic, update.courseDescription, update.maxPeople].some((v) => v !== undefined);
    if (!textUpdate) return;
    if (update.courseTopic === undefined) {
      context.addIssue({ code: 'custom', path: ['courseTopic'], message: key('course.topicRequired') });
    }
    if (update.courseDescription === undefined) {
      context.addIssue({ code: 'custom', path: ['courseDescription'], message: key('course.descriptionRequired') });
    }
  });

export const CourseStatusUpdate = z.object({ status: courseStatus });

const instant = (required: MessageKey) => z.iso.datetime({ offset: true, error: key(required) });

/** A round's times; the end must come after the start. */
export const RoundTimes = z
  .object({
    roundStartTime: instant('round.startRequired'),
    roundEndTime: instant('round.endRequired'),
  })
  .refine((round) => Date.parse(round.roundEndTime) > Date.parse(round.roundStartTime), {
    path: ['roundEndTime'],
    message: key('round.endBeforeStart'),
  });

/** Two rounds overlap when each starts before the other ends; one may start as another ends. */
export const roundsOverlap = (a: { start: string; end: string }, b: { start: string; end: string }) =>
  Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);

/** POST /api/admin/courses/{id}/assistants: the username of an approved member or partner (issue 18). */
export const AssistantRequest = z.object({
  username: singleLineText(key('username.required'))
    .trim()
    .min(1, key('username.required'))
    .max(50, key('text.tooLong')),
});

const coordinate = (limit: number, message: MessageKey) =>
  z
    .number({ error: key(message) })
    .min(-limit, key(message))
    .max(limit, key(message));

/**
 * PUT /api/admin/courses/{id}/self-check-in (issue 23): where members checking themselves in must
 * be (null: anywhere) and whether one device checks in one member per round.
 */
export const SelfCheckInRequest = z.object({
  location: z
    .object({
      latitude: coordinate(90, 'selfCheckIn.latitude'),
      longitude: coordinate(180, 'selfCheckIn.longitude'),
      radiusMetres: z
        .number({ error: key('selfCheckIn.radius') })
        .int(key('selfCheckIn.radius'))
        .min(10, key('selfCheckIn.radius'))
        .max(5000, key('selfCheckIn.radius')),
    })
    .nullable(),
  onePerDevice: z.boolean({ error: key('selfCheckIn.onePerDevice') }),
});
