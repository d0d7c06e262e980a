import type { Sql } from '@portal/platform/store/sql';
import type { CourseRow as Course, RoundRow as Round } from '@portal/read-models/courses';
import type { MemberCourse } from '@portal/contracts/views/reports';
import { expectedSql } from './absence.ts';

type CourseRow = Pick<Course, 'id' | 'topic' | 'description' | 'image_url' | 'creator'> & {
  creator_name: string | null;
  enrolled: boolean;
};
type RoundRow = Pick<Round, 'id' | 'course_id' | 'starts_at' | 'ends_at'> & {
  scanned_at: Date | null;
  late: boolean | null;
  /** Enrolled at the round's start (see absence.ts). */
  expected: boolean;
};

const iso = (value: Date) => new Date(value).toISOString();

/** The spec's dashboard status, derived from progress (spec 001 section 4). */
const statusOf = (progress: number): MemberCourse['status'] =>
  progress >= 100 ? 'Completed' : progress > 0 ? 'In Progress' : 'Upcoming';

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((100 * part) / whole));

/**
 * A member's courses as their dashboard shows them: every course they are or were enrolled in or
 * were scanned in (a course they left keeps its past rounds), with progress (rounds attended over the course's rounds), their attendance entries
 * (a round attended, or ended while they were enrolled and missed: the same absence the course
 * counts use), and the next round. Only real scans count; voided ones do not.
 */
export async function memberCourses(sql: Sql, memberId: string, now: Date) {
  const courses = await sql.query<CourseRow>(
    `WITH mine AS (
       SELECT course_id FROM rm.enrolment_periods WHERE member_id = $1
       UNION SELECT course_id FROM rm.attendance WHERE member_id = $1 AND voided_at IS NULL)
     SELECT c.id, c.topic, c.description, c.image_url, c.creator, creator.full_name AS creator_name,
            EXISTS (SELECT 1 FROM rm.enrolments e WHERE e.course_id = c.id AND e.member_id = $1) AS enrolled
       FROM mine JOIN rm.courses c ON c.id = mine.course_id
       LEFT JOIN rm.accounts creator ON creator.id = c.creator
      ORDER BY c.created_at DESC, c.id`,
    [memberId],
  );
  const rounds = await sql.query<RoundRow>(
    `WITH mine AS (
       SELECT course_id FROM rm.enrolment_periods WHERE member_id = $1
       UNION SELECT course_id FROM rm.attendance WHERE member_id = $1 AND voided_at IS NULL)
     SELECT r.id, r.course_id, r.starts_at, r.ends_at, a.scanned_at, a.late, ${expectedSql('r', '$1')} AS expected
       FROM mine JOIN rm.rounds r ON r.course_id = mine.course_id
       LEFT JOIN rm.attendance a ON a.round_id = r.id AND a.member_id = $1 AND a.voided_at IS NULL
      ORDER BY r.starts_at, r.id`,
    [memberId],
  );
  const byCourse = new Map<string, RoundRow[]>();
  for (const round of rounds) {
    const list = byCourse.get(round.course_id);
    if (list) list.push(round);
    else byCourse.set(round.course_id, [round]);
  }
  return courses.map((course): MemberCourse & { rounds: RoundRow[] } => {
    const own = byCourse.get(course.id) ?? [];
    const attended = own.filter((round) => round.scanned_at).length;
    const numbered = own.map((round, index) => ({ round, roundNumber: index + 1 }));
    // The count rule (absence.ts): a round ended while they were expected and missed is an absence;
    // a round that started before they enrolled (or while they had left) was never theirs.
    const entries = numbered.filter(
      ({ round }) => round.scanned_at || (round.expected && new Date(round.ends_at) < now),
    );
    // Progress is over the rounds that are theirs: attended, expected, or still to come while enrolled.
    const theirs = own.filter(
      (round) => round.scanned_at || round.expected || (course.enrolled && new Date(round.starts_at) > now),
    );
    const next = numbered.find(({ round }) => new Date(round.starts_at) > now);
    const progress = percent(attended, theirs.length);
    return {
      _id: course.id,
      courseTopic: course.topic,
      courseImage: course.image_url,
      courseDescription: course.description,
      progress,
      status: statusOf(progress),
      totalLessons: theirs.length,
      completedLessons: attended,
      heldLessons: entries.length,
      instructor: course.creator,
      instructorName: course.creator_name || null,
      enrolled: course.enrolled,
      upcomingRound: next
        ? { _id: next.round.id, date: iso(next.round.starts_at), roundNumber: next.roundNumber }
        : null,
      userAttendance: entries.map(({ round, roundNumber }) => ({
        roundId: round.id,
        roundNumber,
        date: iso(round.starts_at),
        status: round.scanned_at ? ('Attended' as const) : ('Absent' as const),
        late: Boolean(round.late),
        scannedAt: round.scanned_at ? iso(round.scanned_at) : null,
      })),
      rounds: own,
    };
  });
}

/** The dashboard: the courses, the four figures over them, and the next three rounds. */
export async function memberReport(sql: Sql, memberId: string, now: Date) {
  const courses = await memberCourses(sql, memberId, now);
  const entries = courses.flatMap((course) => course.userAttendance);
  const upcoming = courses
    .flatMap((course) =>
      course.rounds
        .map((round, index) => ({ round, roundNumber: index + 1 }))
        .filter(({ round }) => new Date(round.starts_at) > now)
        .map(({ round, roundNumber }) => ({
          _id: round.id,
          courseId: course._id,
          courseTopic: course.courseTopic,
          roundNumber,
          date: iso(round.starts_at),
          endsAt: iso(round.ends_at),
        })),
    )
    .sort((a, b) => a.date.localeCompare(b.date) || a._id.localeCompare(b._id));
  return {
    course: courses.map(({ rounds: _rounds, ...course }) => course),
    summary: {
      enrolledCourses: courses.filter((course) => course.enrolled).length,
      upcomingRounds: upcoming.length,
      attendanceRate: entries.length
        ? percent(entries.filter((entry) => entry.status === 'Attended').length, entries.length)
        : null,
      completedCourses: courses.filter((course) => course.status === 'Completed').length,
      totalCourses: courses.length,
    },
    upcoming: upcoming.slice(0, 3),
  };
}
