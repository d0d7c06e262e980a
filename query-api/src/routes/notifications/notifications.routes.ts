import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { NotificationList, NotificationQuery } from '@portal/contracts/views/notifications';
import { notificationsOf } from '../../core/notifications-table.ts';
import { answer, paged } from '../../core/answers.ts';

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
      const found = await notificationsOf(app.queries.db, request.session!, request.query, now);
      return answer(request, 'notifications.loaded', { ...paged(found, request.query), serverTime: now.toISOString() });
    },
  );
}
