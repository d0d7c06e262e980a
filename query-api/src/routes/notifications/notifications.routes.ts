import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { languageOf } from '@portal/platform/http/language';
import { translate } from '@portal/contracts/rules/messages';
import { NotificationList, NotificationQuery } from '../../contracts/notifications.ts';
import { notificationsOf } from '../../core/notifications-table.ts';
import { pagesOf } from '../../core/paging.ts';

/** Each signed-in person's notifications, with the four tabs' counts (spec 001 sections 2.11 and 4). */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Your notifications, newest first, filtered by tab (all, unread, system, course), with the counts',
        querystring: NotificationQuery,
        response: { 200: NotificationList },
      },
    },
    async (request) => {
      const now = new Date();
      const { page, pageSize } = request.query;
      const found = await notificationsOf(app.queries.db, request.session!, request.query, now);
      return {
        success: true as const,
        ...found,
        page,
        pageSize,
        pages: pagesOf(found.total, pageSize),
        serverTime: now.toISOString(),
        message: translate('notifications.loaded', languageOf(request)),
      };
    },
  );
}
