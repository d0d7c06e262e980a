import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CalendarLink } from '@portal/contracts/views/calendar';
import { notFound } from '@portal/platform/domain/errors';
import { calendarText, feedIdOf, feedOwner, feedPath, feedRounds } from '../../core/calendar-feed.ts';

/** GET /api/calendar: the signed-in person's own feed address (null until they ask for one). */
export async function calendarLinkRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/calendar',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Your private calendar feed: its path on the portal, or null before you first ask for one',
        response: { 200: CalendarLink },
      },
    },
    async (request) => {
      const [row] = await app.queries.db.query<{ feed_id: string; issued_at: Date }>(
        'SELECT feed_id, issued_at FROM rm.calendar_feeds WHERE account_id = $1',
        [request.session!.accountId],
      );
      return {
        success: true as const,
        path: row ? feedPath(app.queries.passSecret, row.feed_id) : null,
        issuedAt: row ? new Date(row.issued_at).toISOString() : null,
      };
    },
  );
}

const FeedParams = z.object({ file: z.string().max(100) });
const FeedQuery = z.object({ lang: z.enum(['en', 'th']).default('en') });

/**
 * GET /api/calendar/{token}.ics: a feed, for calendar apps, which sign in to nothing: the secret
 * address is the permission. Anything but a live address answers 404, the same for a made-up
 * one, a reset one and a removed account's, so the answer says nothing about who exists.
 */
export async function calendarFeedRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'A private calendar feed (iCalendar); its address is the secret',
        params: FeedParams,
        querystring: FeedQuery,
      },
    },
    async (request, reply) => {
      const { db, passSecret } = app.queries;
      const token = request.params.file.endsWith('.ics') ? request.params.file.slice(0, -4) : '';
      const feedId = feedIdOf(passSecret, token);
      const owner = feedId && (await feedOwner(db, feedId));
      if (!owner) throw notFound('calendar.notFound');
      const rounds = await feedRounds(db, owner);
      reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="rounds.ics"')
        // Nobody on the way may keep a copy: the address is the only key.
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex');
      return calendarText(rounds, {
        origin: `${request.protocol}://${request.host}`,
        language: request.query.lang,
      });
    },
  );
}
