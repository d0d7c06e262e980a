import { AssistantSaved, Done } from '@portal/contracts/answers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { courseStream } from '@portal/contracts/courses/course.events';
import { languageOf } from '@portal/platform/http/language';
import { AssistantRequest } from '@portal/contracts/rules/course';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { accountIdOfUsername, mayAssist } from '../accounts/lookup.ts';
import { handleCommand } from '../core/command-handler.ts';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { fieldError } from '../core/uploaded-image.ts';
import { courseDecider } from './decider.ts';
import type { CourseCommand } from './decide.ts';

const hex = (message: MessageKey) => z.string().regex(/^[0-9a-f]{24}$/, message);
const CourseId = z.object({ id: hex('course.notFound') });

/**
 * Scan-only assistants (issue 18): the course's creator or an admin adds an approved member or
 * partner by username, or removes one. The course's stream records who did it and when; the
 * assistant may then open the course's rounds and scan, and nothing else.
 */
export async function assistantRoutes(app: FastifyInstance): Promise<void> {
  const { db, store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const run = async (
    request: FastifyRequest,
    courseId: string,
    command:
      | { type: 'AddAssistant'; data: { assistantId: string; eligible: boolean } }
      | { type: 'RemoveAssistant'; data: { assistantId: string } },
  ) => {
    return handleCommand(
      store,
      courseDecider,
      courseStream(courseId),
      { ...command, metadata: signedInMetadataOf(request) } as CourseCommand,
      { idempotency: idempotencyOf(request), metadata: metadataOf(request) },
    );
  };

  routes.post(
    '/api/admin/courses/:id/assistants',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        response: { 201: AssistantSaved },
        tags: ['courses'],
        summary:
          'Add a scan-only assistant by username (the course’s creator or an admin): an approved member or partner',
        params: CourseId,
        body: AssistantRequest,
      },
    },
    async (request, reply) => {
      const assistantId = await accountIdOfUsername(db, request.body.username);
      if (!assistantId) throw fieldError(request, 404, 'username', 'assistant.notFound');
      const result = await run(request, request.params.id, {
        type: 'AddAssistant',
        data: { assistantId, eligible: await mayAssist(store, assistantId) },
      });
      return reply.code(201).send({
        success: true as const,
        message: translate('assistant.added', languageOf(request)),
        assistantId,
        position: result.position,
      });
    },
  );

  routes.delete(
    '/api/admin/courses/:id/assistants/:assistantId',
    {
      config: { roles: ['admin', 'partner'] },
      schema: {
        response: { 200: Done },
        tags: ['courses'],
        summary: 'Remove a scan-only assistant (the course’s creator or an admin)',
        params: CourseId.extend({ assistantId: hex('assistant.notFound') }),
      },
    },
    async (request) => {
      const result = await run(request, request.params.id, {
        type: 'RemoveAssistant',
        data: { assistantId: request.params.assistantId },
      });
      return {
        success: true as const,
        message: translate('assistant.removed', languageOf(request)),
        position: result.position,
      };
    },
  );
}
