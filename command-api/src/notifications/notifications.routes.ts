import { Done } from '@portal/contracts/answers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageOf } from '@portal/platform/http/language';
import { inboxStream } from '@portal/contracts/notifications/notification.events';
import { translate } from '@portal/contracts/rules/messages';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';
import { type NotificationCommand, decideRead } from './decide.ts';

const ReadBody = z.object({
  ids: z
    .array(z.string().trim().min(1).max(80), { error: 'notifications.idsInvalid' })
    .min(1, 'notifications.idsInvalid')
    .max(100, 'notifications.idsInvalid'),
});

/**
 * Marking notifications read: one or some (`ids`), or all shown so far. Each person's read state
 * is their own stream; nothing needs deciding (./decide.ts), so appends take any revision.
 */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const markRead = (request: FastifyRequest, command: NotificationCommand) =>
    store.append(
      inboxStream(command.metadata.actor.id),
      decideRead(command).map((event) => ({ ...event, metadata: metadataOf(request) })),
      { expectedRevision: 'any', idempotency: idempotencyOf(request) },
    );

  routes.post(
    '/api/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark notifications as read',
        body: ReadBody,
        response: { 200: Done },
      },
    },
    async (request) => {
      const result = await markRead(request, {
        type: 'MarkRead',
        data: request.body,
        metadata: signedInMetadataOf(request),
      });
      return {
        success: true as const,
        message: translate('notifications.read', languageOf(request)),
        position: result.position,
      };
    },
  );

  routes.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Mark every notification shown until now as read',
        response: { 200: Done },
      },
    },
    async (request) => {
      const result = await markRead(request, { type: 'MarkAllRead', data: {}, metadata: signedInMetadataOf(request) });
      return {
        success: true as const,
        message: translate('notifications.read', languageOf(request)),
        position: result.position,
      };
    },
  );
}
