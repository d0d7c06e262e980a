import { randomBytes } from 'node:crypto';
import { Done } from '@portal/contracts/answers';
import { CalendarFeedIssued, calendarStream } from '@portal/contracts/calendar/calendar.events';
import { translate } from '@portal/contracts/rules/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { languageOf } from '@portal/platform/http/language';
import { idempotencyOf, metadataOf, signedInMetadataOf } from '../core/request-context.ts';

/**
 * A person's private calendar feed: issuing one (the first time, or again to reset it) gives it a
 * new random id, so the address given out before stops working. Only the signed-in person's own
 * feed, whatever their role; nothing else to decide, so appends take any revision.
 */
export async function calendarRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.commands;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/calendar/feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Issue a new private calendar feed (the old address stops working)',
        response: { 200: Done },
      },
    },
    async (request) => {
      const { actor } = signedInMetadataOf(request);
      const event = CalendarFeedIssued.create(
        { feedId: randomBytes(16).toString('base64url'), issuedAt: new Date().toISOString() },
        metadataOf(request),
      );
      const result = await store.append(calendarStream(actor.id), [event], {
        expectedRevision: 'any',
        idempotency: idempotencyOf(request),
      });
      return {
        success: true as const,
        message: translate('calendar.issued', languageOf(request)),
        position: result.position,
      };
    },
  );
}
