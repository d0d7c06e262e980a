import { createHmac, timingSafeEqual } from 'node:crypto';
import ical, { ICalEventStatus } from 'ical-generator';
import type { Language } from '@portal/contracts/rules/messages';
import type { CompanyView } from '@portal/contracts/views/account';
import type { SqlDatabase } from '@portal/platform/store/sql';

/**
 * A feed's address is `<feed id>.<signature>`: the id is in the log and the read models, the
 * signature only in the servers (an HMAC with the pass secret under a label of its own), so the
 * address cannot be made from a copy of the database.
 */
const signature = (secret: string, feedId: string) =>
  createHmac('sha256', secret).update(`calendar-feed\0${feedId}`).digest('base64url').slice(0, 32);

export const feedToken = (secret: string, feedId: string) => `${feedId}.${signature(secret, feedId)}`;

/** The feed id a token names, when its signature is the server's; otherwise null. */
export function feedIdOf(secret: string, token: string): string | null {
  const match = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(signature(secret, match[1]!));
  return timingSafeEqual(expected, Buffer.from(match[2]!)) ? match[1]! : null;
}

/** A feed's path on the portal: the console puts its own origin in front. */
export const feedPath = (secret: string, feedId: string) => `/api/calendar/${feedToken(secret, feedId)}.ics`;

/** Whose feed it is: the latest id a person was issued, while their account stands. */
export async function feedOwner(db: SqlDatabase, feedId: string): Promise<string | null> {
  const [row] = await db.query<{ account_id: string }>(
    `SELECT f.account_id FROM rm.calendar_feeds f JOIN rm.accounts_sealed a ON a.id = f.account_id
      WHERE f.feed_id = $1 AND a.status = 'approved'`,
    [feedId],
  );
  return row?.account_id ?? null;
}

export interface FeedRound {
  round_id: string;
  course_id: string;
  topic: string;
  description: string;
  starts_at: Date;
  ends_at: Date;
  cancelled: boolean;
  sequence: number;
  changed_at: Date;
  /** Its place in the course's rounds that stand (null when cancelled). */
  number: number | null;
  /** The person runs the course (creator or assistant) rather than takes it. */
  runs: boolean;
  /** The course creator's shop, when the creator is a partner. */
  company: CompanyView | null;
}

/**
 * The rounds of every course the person takes part in: enrolled now, created, or assisting.
 * (A course they left, or that was deleted, drops out: a calendar app removes what a
 * subscribed feed no longer lists.)
 */
export async function feedRounds(db: SqlDatabase, accountId: string): Promise<FeedRound[]> {
  return db.query<FeedRound>(
    `WITH mine AS (
       SELECT course_id, false AS runs FROM rm.enrolments WHERE member_id = $1
       UNION ALL SELECT id, true FROM rm.courses WHERE creator = $1
       UNION ALL SELECT course_id, true FROM rm.course_assistants WHERE assistant_id = $1
     ),
     -- One row per course, its creator's shop opened once (not once per round: it is sealed).
     courses AS MATERIALIZED (
       SELECT c.id AS course_id, c.topic, c.description, bool_or(m.runs) AS runs,
              (SELECT a.company FROM rm.accounts a WHERE a.id = c.creator AND a.role = 'partner') AS company
         FROM mine m JOIN rm.courses c ON c.id = m.course_id
        GROUP BY c.id
     )
     SELECT r.round_id, r.course_id, c.topic, c.description, r.starts_at, r.ends_at, r.cancelled,
            r.sequence, r.changed_at, c.runs, c.company,
            CASE WHEN r.cancelled THEN NULL
                 ELSE row_number() OVER (PARTITION BY r.course_id, r.cancelled ORDER BY r.starts_at, r.round_id)::int
            END AS number
       FROM courses c
       JOIN rm.calendar_rounds r ON r.course_id = c.course_id
      ORDER BY r.starts_at, r.round_id`,
    [accountId],
  );
}

const words = {
  en: { name: 'Course portal', round: 'Round', cancelled: 'Cancelled', open: 'Open in the portal' },
  th: { name: 'พอร์ทัลหลักสูตร', round: 'รอบที่', cancelled: 'ยกเลิกแล้ว', open: 'เปิดในพอร์ทัล' },
} satisfies Record<Language, Record<string, string>>;

/**
 * The feed as iCalendar (RFC 5545): one event per round, its UID the round's id, so a moved or
 * cancelled round replaces what the calendar app holds (SEQUENCE counts the changes). The link
 * opens the round's page for whoever runs it and the member's pass for whoever takes it.
 */
export function calendarText(rounds: FeedRound[], options: { origin: string; language: Language }) {
  const w = words[options.language];
  const calendar = ical({
    name: w.name,
    prodId: { company: 'Course portal', product: 'Rounds', language: options.language.toUpperCase() },
    ttl: 60 * 60,
  });
  for (const round of rounds) {
    const url = round.runs
      ? `${options.origin}/courses/${round.course_id}/rounds/${round.round_id}`
      : `${options.origin}/e-market#member-pass`;
    const title = round.cancelled ? `${w.cancelled}: ${round.topic}` : `${round.topic} · ${w.round} ${round.number}`;
    const place = round.company && placeOf(round.company);
    calendar.createEvent({
      id: `round-${round.round_id}@course-portal`,
      start: new Date(round.starts_at),
      end: new Date(round.ends_at),
      summary: title,
      description: [round.description, `${w.open}: ${url}`].filter(Boolean).join('\n\n'),
      url,
      sequence: Number(round.sequence),
      lastModified: new Date(round.changed_at),
      status: round.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      ...(place && { location: place }),
    });
  }
  return calendar.toString();
}

function placeOf(company: CompanyView) {
  const address = [
    company.companyAddress,
    company.companySubdistrict,
    company.companyDistrict,
    company.companyProvince,
    company.companyPostalCode,
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  const title = company.companyName.trim() || address;
  if (!title) return null;
  const geo =
    Number.isFinite(company.shopLatitude) &&
    Number.isFinite(company.shopLongitude) &&
    !(company.shopLatitude === 0 && company.shopLongitude === 0)
      ? { lat: company.shopLatitude, lon: company.shopLongitude }
      : undefined;
  return { title, address: address || undefined, geo };
}
