import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AssistantList, AssistingAnswer } from '@portal/contracts/views/assistants';
import { assistedRounds, courseAssistants } from '../../core/assistants-table.ts';
import { forbidden, notFound } from '@portal/platform/domain/errors';
import { answer } from '../../core/answers.ts';

/** Scan-only assistants (issue 18): a course's list for its creator and admins, and an assistant's rounds. */
export async function assistantQueryRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/api/admin/courses/:id/assistants',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        tags: ['courses'],
        summary: 'The course’s scan-only assistants (its creator and admins)',
        params: z.object({ id: z.string() }),
        response: { 200: AssistantList },
      },
    },
    async (request) => {
      const { db } = app.queries;
      const [course] = await db.query<{ creator: string }>(`SELECT creator FROM rm.courses WHERE id = $1`, [
        request.params.id,
      ]);
      if (!course) throw notFound('course.notFound');
      const { accountId, role } = request.session!;
      if (role !== 'admin' && course.creator !== accountId) throw forbidden('course.notCreator');
      return answer(request, 'courses.loaded', { assistants: await courseAssistants(db, request.params.id) });
    },
  );

  routes.get(
    '/api/assisting',
    {
      config: { roles: ['member', 'partner'] },
      schema: {
        tags: ['attendance'],
        summary: 'The rounds (open now or within the week) of the courses the signed-in user assists in',
        response: { 200: AssistingAnswer },
      },
    },
    async (request) =>
      answer(request, 'courses.loaded', {
        rounds: await assistedRounds(app.queries.db, request.session!.accountId, new Date()),
      }),
  );
}
