import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/**
 * A person's private calendar feed, in their own stream `calendar-<accountId>`. The feed's address
 * is its id signed by the server (query-api/src/core/calendar-feed.ts): the log holds the id, not
 * the address, so reading the log is not enough to read anyone's calendar. Issuing a new id (the
 * person's "reset") makes the old address answer 404 from then on.
 */
export const calendarStream = (accountId: string) => `calendar-${accountId}`;
export const calendarOwnerOf = (streamId: string) => streamId.slice('calendar-'.length);

const at = z.iso.datetime({ offset: true });

/** 128 random bits, base64url. */
export const FeedId = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

export const CalendarFeedIssued = defineEvent('CalendarFeedIssued', z.object({ feedId: FeedId, issuedAt: at }));

export const calendarEvents = [CalendarFeedIssued] as const;
export const decodeCalendarEvent = createDecoder(calendarEvents);
export type CalendarEvent = NonNullable<ReturnType<typeof decodeCalendarEvent>>;
