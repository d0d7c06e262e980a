import { accountIdOf, decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import { calendarOwnerOf, decodeCalendarEvent } from '@portal/contracts/calendar/calendar.events';
import { courseIdOf, decodeCourseEvent } from '@portal/contracts/courses/course.events';
import { createTable } from '@portal/platform/read-models/table';
import { calendarFeeds, calendarRounds, calendarTables } from '@portal/read-models/calendar';
import { type Projection, readsOf, someOf } from '../../projection.ts';

/** Of the course and account events, the ones a calendar shows. */
const courseTypes = someOf(
  decodeCourseEvent,
  'RoundScheduled',
  'RoundRescheduled',
  'RoundCancelled',
  'CourseDeleted',
).types;
const accountTypes = someOf(decodeAccountEvent, 'PersonalDataErased', 'RegistrationDeleted').types;

/**
 * The calendar feeds: each person's latest feed id, and every round as a calendar shows it. A
 * moved or cancelled round stays, with its SEQUENCE raised, so a calendar app that holds it
 * replaces it (a cancelled one is shown struck out, not silently dropped). A deleted course's
 * rounds go: nobody takes part in it any more, so no feed lists them. An erased or deleted
 * account's feed goes with it.
 */
export const calendarProjection: Projection = {
  name: 'calendar',
  reads: readsOf(decodeCalendarEvent, { types: courseTypes }, { types: accountTypes }),
  // 2: identifiers compared byte by byte (COLLATE "C", read-models/table.ts identifier).
  version: 2,
  async createTables(sql, schema) {
    for (const table of calendarTables) await createTable(sql, schema, table);
  },
  async apply(sql, schema, stored, _personal, batch) {
    if (accountTypes.has(stored.type) && decodeAccountEvent(stored)) {
      await sql.query(`DELETE FROM ${schema}.calendar_feeds WHERE account_id = $1`, [accountIdOf(stored.streamId)]);
      return;
    }
    if (decodeCalendarEvent.types.has(stored.type)) {
      const event = decodeCalendarEvent(stored)!;
      const row = {
        account_id: calendarOwnerOf(event.streamId),
        feed_id: event.data.feedId,
        issued_at: event.data.issuedAt,
      };
      await batch.insert(
        schema,
        calendarFeeds,
        row,
        'ON CONFLICT (account_id) DO UPDATE SET feed_id = EXCLUDED.feed_id, issued_at = EXCLUDED.issued_at',
      );
      return;
    }
    if (!courseTypes.has(stored.type)) return;
    const event = decodeCourseEvent(stored)!;
    const courseId = courseIdOf(event.streamId);
    switch (event.type) {
      case 'RoundScheduled': {
        const d = event.data;
        const row = {
          round_id: d.roundId,
          course_id: courseId,
          starts_at: d.roundStartTime,
          ends_at: d.roundEndTime,
          changed_at: d.scheduledAt,
        };
        await batch.insert(schema, calendarRounds, row, 'ON CONFLICT (round_id) DO NOTHING');
        return;
      }
      case 'RoundRescheduled':
        await sql.query(
          `UPDATE ${schema}.calendar_rounds SET starts_at = $2, ends_at = $3, sequence = sequence + 1, changed_at = $4
            WHERE round_id = $1`,
          [event.data.roundId, event.data.roundStartTime, event.data.roundEndTime, event.data.rescheduledAt],
        );
        return;
      case 'RoundCancelled':
        await sql.query(
          `UPDATE ${schema}.calendar_rounds SET cancelled = true, sequence = sequence + 1, changed_at = $2
            WHERE round_id = $1`,
          [event.data.roundId, event.data.cancelledAt],
        );
        return;
      case 'CourseDeleted':
        await sql.query(`DELETE FROM ${schema}.calendar_rounds WHERE course_id = $1`, [courseId]);
        return;
    }
  },
};
