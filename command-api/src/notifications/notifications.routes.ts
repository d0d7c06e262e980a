import { Done } from '@portal/contracts/answers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageOf } from '@portal/platform/http/language';
import {
  AllNotificationsRead,
  NotificationsRead,
  inboxStream,
} from '@portal/contracts/notifications/notification.events';
import { translate } from '@portal/contracts/rules/messages';
import { idempotencyOf, metadataOf } from '../core/request-context.ts';

const ReadBody = z.object({
  ids: z
    .array(z.string().trim().min(1).max(80), { error: 'notifications.idsInvalid' })
    .min(1, 'notifications.idsInvalid')
    .max(100, 'notifications.idsInvalid'),
});

/**
 * Marking notifications read: one or some (`ids`), or all shown so far. Each person's read state
 * is their own stream; nothing needs deciding, so appends take any revision.
 */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.commands;
  const routes = app.withTypeProvider<ZodTypeProvider>();

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
      const { accountId } = request.session!;
      const result = await store.append(
        inboxStream(accountId),
        [
          NotificationsRead.create(
            { ids: [...new Set(request.body.ids)], readAt: new Date().toISOString() },
            metadataOf(request),
          ),
        ],
        { expectedRevision: 'any', idempotency: idempotencyOf(request) },
      );
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
      const { accountId } = request.session!;
      const result = await store.append(
        inboxStream(accountId),
        [AllNotificationsRead.create({ readAt: new Date().toISOString() }, metadataOf(request))],
        { expectedRevision: 'any', idempotency: idempotencyOf(request) },
      );
      return {
        success: true as const,
        message: translate('notifications.read', languageOf(request)),
        position: result.position,
      };
    },
  );
}
