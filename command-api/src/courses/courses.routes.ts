import { CourseCreated, Done, ImageSaved, RoundSaved } from '@portal/contracts/answers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { courseStream } from '@portal/contracts/courses/course.events';
import { languageOf } from '@portal/platform/http/language';
import {
  CourseCreation,
  CourseStatusUpdate,
  CourseUpdate,
  RoundTimes,
  SelfCheckInRequest,
} from '@portal/contracts/rules/course';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import type { Sql } from '@portal/platform/store/sql';
import { handleCommand, loadState } from '../core/command-handler.ts';
import { newId } from '../core/ids.ts';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { NotAnImage, fieldError, readUpload } from '../core/uploaded-image.ts';
import { COURSE_IMAGE_BYTES, removeCourseImages, storeCourseImage } from './course-image.ts';
import { indexRound } from './round-index.ts';
import { courseDecider } from './decider.ts';
import { type CourseCommand, manageable } from './decide.ts';

const CourseId = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'course.notFound') });
const RoundId = CourseId.extend({ roundId: z.string().regex(/^[0-9a-f]{24}$/, 'round.notFound') });

type Command = CourseCommand extends infer C ? (C extends CourseCommand ? Omit<C, 'metadata'> : never) : never;

/**
 * Courses, their rounds and enrolment (spec 001 section 7, plus rounds and enrolment). Who may do
 * what is decided from the verified session by the course decider.
 */
export async function courseRoutes(app: FastifyInstance): Promise<void> {
  const { store, uploadsDir } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const run = async (
    request: FastifyRequest,
    courseId: string,
    command: Command,
    message: MessageKey,
    inSameTransaction?: (tx: Sql) => Promise<void>,
  ) => {
    const result = await handleCommand(
      store,
      courseDecider,
      courseStream(courseId),
      { ...command, metadata: signedInMetadataOf(request) } as CourseCommand,
      { idempotency: idempotencyOf(request), metadata: metadataOf(request), inSameTransaction },
    );
    return { success: true as const, message: translate(message, languageOf(request)), position: result.position };
  };

  for (const path of ['/api/admin/createcourse', '/api/admin/createcourses']) {
    routes.post(
      path,
      {
        schema: {
          tags: ['courses'],
          response: { 201: CourseCreated },
          summary: 'Create a course (admins and partners); the creator is the signed-in user',
          body: CourseCreation,
        },
      },
      async (request, reply) => {
        const id = newId();
        const answer = await run(request, id, { type: 'CreateCourse', data: request.body }, 'course.created');
        return reply.code(201).send({ ...answer, _id: id, course: { _id: id, ...request.body } });
      },
    );
  }

  routes.put(
    '/api/admin/courses/:id/self-check-in',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['courses'],
        response: { 200: Done },
        summary: 'How members check themselves in on the room code: where (or anywhere) and one member per device',
        params: CourseId,
        body: SelfCheckInRequest,
      },
    },
    (request) =>
      run(request, request.params.id, { type: 'ConfigureSelfCheckIn', data: request.body }, 'selfCheckIn.saved'),
  );

  routes.put(
    '/api/admin/updatecourses/:id',
    {
      schema: {
        tags: ['courses'],
        response: { 200: Done },
        summary: 'Update a course: topic and description (and max participants), or the status alone',
        params: CourseId,
        body: CourseUpdate,
      },
    },
    async (request) => {
      const { status, courseTopic, courseDescription, maxPeople } = request.body;
      const text =
        courseTopic !== undefined && courseDescription !== undefined
          ? { courseTopic, courseDescription, maxPeople }
          : undefined;
      return run(request, request.params.id, { type: 'UpdateCourse', data: { text, status } }, 'course.updated');
    },
  );

  routes.put(
    '/api/admin/course/:id/status',
    {
      schema: {
        tags: ['courses'],
        response: { 200: Done },
        summary: 'Make a course public or private',
        params: CourseId,
        body: CourseStatusUpdate,
      },
    },
    (request) =>
      run(request, request.params.id, { type: 'ChangeCourseStatus', data: request.body }, 'course.statusChanged'),
  );

  routes.put(
    '/api/admin/courses/:id/uploadImage',
    {
      schema: {
        tags: ['courses'],
        response: { 200: ImageSaved },
        summary: 'Upload the course image (multipart field courseImage or profile, up to 10 MB); answers its imageUrl',
        params: CourseId,
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      const { id } = request.params;
      manageable(await loadState(store, courseDecider, courseStream(id)), signedInMetadataOf(request));
      const content = await readUpload(request, {
        fields: ['courseImage', 'profile'],
        maxBytes: COURSE_IMAGE_BYTES,
        tooLarge: 'course.imageTooLarge',
      });
      const imageUrl = await storeCourseImage(uploadsDir, id, content).catch((error: unknown) => {
        throw error instanceof NotAnImage ? fieldError(request, 400, 'courseImage', 'image.invalid') : error;
      });
      const answer = await run(request, id, { type: 'ChangeCourseImage', data: { imageUrl } }, 'image.uploaded');
      await removeCourseImages(uploadsDir, id, imageUrl);
      return { ...answer, imageUrl };
    },
  );

  routes.delete(
    '/api/admin/deletecourse/:id',
    { schema: { tags: ['courses'], summary: 'Delete a course', params: CourseId, response: { 200: Done } } },
    async (request) => {
      const answer = await run(request, request.params.id, { type: 'DeleteCourse', data: {} }, 'course.deleted');
      await removeCourseImages(uploadsDir, request.params.id);
      return answer;
    },
  );

  /** A round with its number: its place in time among the course's rounds. */
  const roundAnswer = async (courseId: string, roundId: string) => {
    const course = await loadState(store, courseDecider, courseStream(courseId));
    const rounds = course.status === 'active' ? [...course.rounds].sort((a, b) => a.start.localeCompare(b.start)) : [];
    const index = rounds.findIndex((round) => round.roundId === roundId);
    const round = rounds[index]!;
    return { _id: roundId, roundNumber: index + 1, roundStartTime: round.start, roundEndTime: round.end };
  };

  routes.post(
    '/api/admin/courses/:id/rounds',
    {
      schema: {
        tags: ['courses'],
        response: { 201: RoundSaved },
        summary: 'Schedule a round (end after start; rounds of a course do not overlap)',
        params: CourseId,
        body: RoundTimes,
      },
    },
    async (request, reply) => {
      const roundId = newId();
      const answer = await run(
        request,
        request.params.id,
        { type: 'ScheduleRound', data: { roundId, ...request.body } },
        'round.scheduled',
        (tx) => indexRound(tx, roundId, request.params.id),
      );
      return reply.code(201).send({ ...answer, round: await roundAnswer(request.params.id, roundId) });
    },
  );

  routes.put(
    '/api/admin/courses/:id/rounds/:roundId',
    {
      schema: {
        tags: ['courses'],
        summary: 'Change the times of a round',
        params: RoundId,
        body: RoundTimes,
        response: { 200: RoundSaved },
      },
    },
    async (request) => {
      const { id, roundId } = request.params;
      const answer = await run(
        request,
        id,
        { type: 'RescheduleRound', data: { roundId, ...request.body } },
        'round.rescheduled',
      );
      return { ...answer, round: await roundAnswer(id, roundId) };
    },
  );

  routes.delete(
    '/api/admin/courses/:id/rounds/:roundId',
    { schema: { tags: ['courses'], summary: 'Cancel a round', params: RoundId, response: { 200: Done } } },
    (request) =>
      run(
        request,
        request.params.id,
        { type: 'CancelRound', data: { roundId: request.params.roundId } },
        'round.cancelled',
      ),
  );

  routes.post(
    '/api/courses/:id/enroll',
    {
      schema: {
        tags: ['courses'],
        response: { 200: Done },
        summary: 'Enrol the signed-in member in a public course (once; never beyond max participants)',
        params: CourseId,
      },
    },
    (request) => run(request, request.params.id, { type: 'Enrol', data: {} }, 'course.enrolled'),
  );

  routes.delete(
    '/api/courses/:id/enroll',
    { schema: { tags: ['courses'], summary: 'Leave a course', params: CourseId, response: { 200: Done } } },
    (request) => run(request, request.params.id, { type: 'Unenrol', data: {} }, 'course.unenrolled'),
  );
}
