import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CourseDetails, CourseList, CoursePage, CourseQuery, ParticipantList } from '@portal/contracts/views/course';
import { findCourse, searchCourses } from '../../core/courses-table.ts';
import { courseParticipants } from '../../core/participants-table.ts';
import { notFound } from '@portal/platform/domain/errors';
import { answer, paged } from '../../core/answers.ts';

/** The course list and details: admins and partners (spec 001 sections 2.1 and 2.3). */
export async function courseQueryRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/courses',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['courses'],
        summary: 'Every course, or with `page` one page (9) searched over topic and description and sorted',
        querystring: CourseQuery,
        response: { 200: z.union([CoursePage, CourseList]) },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      if (page === undefined) {
        const { courses } = await searchCourses(app.queries.db, request.query, null);
        return answer(request, 'courses.loaded', { courses });
      }
      const found = await searchCourses(app.queries.db, request.query, { page, pageSize });
      return answer(request, 'courses.loaded', paged(found, { page, pageSize }));
    },
  );

  routes.get(
    '/api/admin/courses/:id',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['courses'],
        summary: 'One course with its rounds (numbered in time order, active computed from server time)',
        params: z.object({ id: z.string() }),
        response: { 200: CourseDetails },
      },
    },
    async (request) => {
      const now = new Date();
      const course = await findCourse(app.queries.db, request.params.id, now);
      if (!course) throw notFound('course.notFound');
      return answer(request, 'courses.loaded', { course, serverTime: now.toISOString() });
    },
  );

  routes.get(
    '/api/admin/courses/:id/participants',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['courses'],
        summary: 'Everyone scanned in any round of the course (voided scans left out), once each',
        params: z.object({ id: z.string() }),
        response: { 200: ParticipantList },
      },
    },
    async (request) => {
      const participants = await courseParticipants(app.queries.db, request.params.id);
      if (!participants) throw notFound('course.notFound');
      return answer(request, 'courses.loaded', { participants });
    },
  );
}
