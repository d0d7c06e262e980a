import type { Sql } from '@portal/platform/store/sql';
import type { CourseRow, RoundRow as Round } from '@portal/read-models/courses';
import type { RoundDetails } from '@portal/contracts/views/round';
import { roundAbsentSql } from './absence.ts';

type RoundRow = Pick<Round, 'id' | 'course_id' | 'starts_at' | 'ends_at'> &
  Pick<CourseRow, 'topic' | 'creator'> & { number: string | number; absent: string | number };
interface PersonRow {
  member_id: string;
  full_name: string | null;
  username: string | null;
  scanned_at: Date | null;
  late: boolean | null;
  walk_in: boolean | null;
  method: string | null;
  enrolled: boolean;
  enrolled_now: boolean;
  profile_img: string | null;
}

const iso = (value: Date) => new Date(value).toISOString();

/** How long before its start and after its end a round takes scans (the command side's margins). */
export interface ScanMargins {
  opensEarlyMinutes: number;
  closesLateMinutes: number;
  /** A scan this many minutes after the start is late (command-api's LATE_AFTER_MINUTES, 15 by default). */
  lateAfterMinutes?: number;
}
export const NO_MARGINS: ScanMargins = { opensEarlyMinutes: 0, closesLateMinutes: 0 };
const MINUTE = 60_000;

/** When a round takes scans, and from when one is late: the same times command-api decides by. */
export function scanWindow(startsAt: Date, endsAt: Date, margins: ScanMargins) {
  const start = new Date(startsAt).getTime();
  return {
    opensAt: new Date(start - margins.opensEarlyMinutes * MINUTE).toISOString(),
    closesAt: new Date(new Date(endsAt).getTime() + margins.closesLateMinutes * MINUTE).toISOString(),
    lateFrom: new Date(start + (margins.lateAfterMinutes ?? 15) * MINUTE).toISOString(),
  };
}

/** Before, during or after the time a round takes scans: the same window command-api checks. */
export function scanningPhase(startsAt: Date, endsAt: Date, now: Date, margins: ScanMargins) {
  const window = scanWindow(startsAt, endsAt, margins);
  if (now.getTime() < Date.parse(window.opensAt)) return 'upcoming' as const;
  if (now.getTime() > Date.parse(window.closesAt)) return 'ended' as const;
  return 'open' as const;
}

/**
 * One round for the round page: the spec's `scanned` list (latest first), its counts, and the
 * roster of everyone expected (enrolled) or scanned, with names from the accounts read model.
 */
export async function findRound(
  sql: Sql,
  roundId: string,
  now: Date,
  margins: ScanMargins = NO_MARGINS,
): Promise<{ round: RoundDetails['round']; creator: string } | null> {
  const [row] = await sql.query<RoundRow>(
    `SELECT r.id, r.course_id, c.topic, c.creator, r.starts_at, r.ends_at, ${roundAbsentSql('r')} AS absent,
            (SELECT count(*) FROM rm.rounds o WHERE o.course_id = r.course_id AND o.starts_at <= r.starts_at) AS number
       FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
      WHERE r.id = $1`,
    [roundId],
  );
  if (!row) return null;
  // Expected: enrolled at the round's start (absence.ts); for a round still to come, enrolled now.
  const expectedAt = new Date(Math.min(new Date(row.starts_at).getTime(), now.getTime())).toISOString();
  // Also everyone enrolled now (joined after the start: not expected, yet not a walk-in), so a
  // scanner deciding offline knows them.
  const people = await sql.query<PersonRow>(
    `WITH expected AS (
       SELECT member_id FROM rm.enrolment_periods
        WHERE course_id = $2 AND enrolled_at <= $3 AND (left_at IS NULL OR left_at > $3)),
     current AS (SELECT DISTINCT member_id FROM rm.enrolment_periods WHERE course_id = $2 AND left_at IS NULL)
     SELECT p.member_id, acc.full_name, acc.username, nullif(acc.profile_img, '') AS profile_img, a.scanned_at, a.late, a.walk_in, a.method,
            e.member_id IS NOT NULL AS enrolled, c.member_id IS NOT NULL AS enrolled_now
       FROM (SELECT member_id FROM expected
             UNION SELECT member_id FROM rm.attendance WHERE round_id = $1 AND voided_at IS NULL
             UNION SELECT member_id FROM current) p
       LEFT JOIN rm.attendance a ON a.round_id = $1 AND a.member_id = p.member_id AND a.voided_at IS NULL
       LEFT JOIN expected e ON e.member_id = p.member_id
       LEFT JOIN current c ON c.member_id = p.member_id
       LEFT JOIN rm.accounts acc ON acc.id = p.member_id
      ORDER BY a.scanned_at DESC NULLS LAST, acc.full_name`,
    [roundId, row.course_id, expectedAt],
  );
  const scanned = people.filter((person) => person.scanned_at);
  const expected = people.filter((person) => person.enrolled).length;
  return {
    creator: row.creator,
    round: {
      _id: row.id,
      courseId: row.course_id,
      courseTopic: row.topic,
      roundNumber: Number(row.number),
      roundStartTime: iso(row.starts_at),
      roundEndTime: iso(row.ends_at),
      active: new Date(row.starts_at) <= now && now <= new Date(row.ends_at),
      scanning: scanningPhase(row.starts_at, row.ends_at, now, margins),
      scanWindow: scanWindow(row.starts_at, row.ends_at, margins),
      scanned: scanned.map((person) => ({
        _id: `${row.id}-${person.member_id}`,
        user: { _id: person.member_id, fullName: person.full_name, username: person.username },
        scannedAt: iso(person.scanned_at!),
        late: Boolean(person.late),
        walkIn: Boolean(person.walk_in),
        method: person.method ?? 'typed',
      })),
      attended: scanned.length,
      absent: Number(row.absent),
      missing: people.filter((person) => person.enrolled && !person.scanned_at).length,
      expected,
      roster: people.map((person) => ({
        _id: person.member_id,
        fullName: person.full_name,
        username: person.username,
        scannedAt: person.scanned_at ? iso(person.scanned_at) : null,
        late: Boolean(person.late),
        enrolled: person.enrolled,
        enrolledNow: person.enrolled_now,
        photo: person.profile_img,
      })),
    },
  };
}
