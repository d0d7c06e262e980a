import { describe, expect, it } from 'vitest';
import { decodeAccountEvent } from '@portal/contracts/accounts/account.events';
import { decodeCalendarEvent } from '@portal/contracts/calendar/calendar.events';
import { decodeCertificateEvent } from '@portal/contracts/certificates/certificate.events';
import { decodeAttendanceEvent } from '@portal/contracts/attendance/attendance.events';
import { decodeCourseEvent } from '@portal/contracts/courses/course.events';
import type { StoredEvent } from '@portal/contracts/envelope';
import { decodeNotificationEvent } from '@portal/contracts/notifications/notification.events';
import { decodeOutreachEvent } from '@portal/contracts/outreach/outreach.events';
import type { Sql } from '@portal/platform/store/sql';
import type { Batch, PersonalAccess } from '../src/projection.ts';
import { projections } from '../src/projections/index.ts';

/**
 * A projection's `reads` lets the projector pass it by when a batch holds none of those types
 * (no savepoint, no statement), and give it only the events of those types. So it must name
 * every type `apply` acts on: given an event of
 * any other type, with data no schema accepts, `apply` must neither decode it nor touch anything.
 * (A type it acts on but does not name would fail here on decoding, or touch the database.)
 */
const everyType = [
  decodeAccountEvent,
  decodeAttendanceEvent,
  decodeCalendarEvent,
  decodeCertificateEvent,
  decodeCourseEvent,
  decodeNotificationEvent,
  decodeOutreachEvent,
].flatMap((decoder) => [...decoder.types]);

const untouchable = <T extends object>(what: string) =>
  new Proxy({} as T, {
    get: (_target, property) => () => {
      throw new Error(`${what}.${String(property)} used`);
    },
  });

describe('what each projection reads', () => {
  it.each(projections.map((projection) => [projection.name, projection] as const))(
    '%s ignores every event type it does not name',
    async (_name, projection) => {
      expect(projection.reads, 'every projection names what it reads').toBeDefined();
      const others = everyType.filter((type) => !projection.reads!.has(type));
      for (const type of others) {
        const event = {
          type,
          schemaVersion: 1,
          data: { garbage: true },
          metadata: {},
          streamId: 'course-0123456789abcdef01234567',
          streamRevision: 0,
          position: 1,
          transactionId: '1',
          createdAt: new Date().toISOString(),
        } as unknown as StoredEvent;
        const personal = Object.assign(() => {
          throw new Error('personal data opened');
        }, untouchable<object>('personal')) as unknown as PersonalAccess;
        await expect(
          projection.apply(untouchable<Sql>('sql'), 'rm', event, personal, untouchable<Batch>('batch')),
          `${projection.name} on ${type}`,
        ).resolves.toBeUndefined();
      }
      expect(others.length + projection.reads!.size).toBe(everyType.length);
    },
  );
});
