import { column, defineTable, identifier, type RowOf } from '@portal/platform/read-models/table';

/**
 * The calendar feeds (issue 23): whose feed each id is (only the latest id of a person), and every
 * round of every course as a calendar shows it, cancelled ones included, with how many times it
 * changed (the feed's SEQUENCE, so calendar apps replace what they hold). Written by the
 * projector's calendar projection; read by query-api's feed route, which joins the courses read
 * model for the topic and for who takes part.
 */
export const calendarFeeds = defineTable(
  'calendar_feeds',
  {
    account_id: identifier('PRIMARY KEY'),
    feed_id: identifier('NOT NULL UNIQUE'),
    issued_at: column<Date>('timestamptz NOT NULL'),
  },
  {},
);
export type CalendarFeedRow = RowOf<typeof calendarFeeds>;

export const calendarRounds = defineTable(
  'calendar_rounds',
  {
    round_id: identifier('PRIMARY KEY'),
    course_id: identifier('NOT NULL'),
    starts_at: column<Date>('timestamptz NOT NULL'),
    ends_at: column<Date>('timestamptz NOT NULL'),
    cancelled: column<boolean>('boolean NOT NULL DEFAULT false'),
    sequence: column<number>('integer NOT NULL DEFAULT 0'),
    changed_at: column<Date>('timestamptz NOT NULL'),
  },
  { indexes: { calendar_rounds_course: { on: 'course_id, starts_at', projectorReads: true } } },
);
export type CalendarRoundRow = RowOf<typeof calendarRounds>;

export const calendarTables = [calendarFeeds, calendarRounds];
