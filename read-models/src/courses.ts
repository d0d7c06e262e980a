import type { CourseView } from '@portal/contracts/views/course';
import { NO_SELF_CHECK_IN_RULES, type SelfCheckInRules } from '@portal/contracts/courses/course.events';
import { column, defineTable, identifier, type RowOf } from '@portal/platform/read-models/table';

/**
 * The courses read model: courses, their rounds, who is enrolled now and when each member joined
 * and left, and each course's scan-only assistants. Written by the projector's courses
 * projection (the attendance projection keeps the scan counts up to date); read by query-api:
 * the course list, the details, the catalogue, the reports, the rosters and the partner's home.
 */
export const courses = defineTable(
  'courses',
  {
    id: identifier('PRIMARY KEY'),
    topic: column<string>('text NOT NULL'),
    description: column<string>('text NOT NULL'),
    image_url: column<string | null>('text'),
    status: identifier<CourseView['status']>('NOT NULL'),
    max_people: column<number>('integer NOT NULL'),
    creator: identifier('NOT NULL'),
    enrolled: column<number>('integer NOT NULL DEFAULT 0'),
    participate: column<number>('integer NOT NULL DEFAULT 0'),
    total_attend: column<number>('integer NOT NULL DEFAULT 0'),
    created_at: column<Date>('timestamptz NOT NULL'),
    updated_at: column<Date>('timestamptz NOT NULL'),
    /** How members check themselves in (issue 23); null: the defaults (anywhere, any device). */
    self_check_in: column<SelfCheckInRules | null>('jsonb'),
    search_text: column<string>(`text GENERATED ALWAYS AS (lower(topic || ' ' || description)) STORED`),
  },
  {
    indexes: {
      // The list's three orders, each with the id as the tie-break the query uses.
      courses_by_topic: 'lower(topic), id',
      courses_by_participate: 'participate, id',
      courses_by_created: 'created_at, id',
      // The partner's home: one person's courses, newest first.
      courses_by_creator: 'creator, created_at',
    },
  },
);
export type CourseRow = RowOf<typeof courses>;

export const rounds = defineTable(
  'rounds',
  {
    id: identifier('PRIMARY KEY'),
    course_id: identifier('NOT NULL'),
    starts_at: column<Date>('timestamptz NOT NULL'),
    ends_at: column<Date>('timestamptz NOT NULL'),
    attended: column<number>('integer NOT NULL DEFAULT 0'),
  },
  // The projector removes a deleted course's rounds by course_id.
  { indexes: { rounds_course: { on: 'course_id, starts_at', projectorReads: true } } },
);
export type RoundRow = RowOf<typeof rounds>;

/** Who is enrolled now. */
export const enrolments = defineTable(
  'enrolments',
  {
    course_id: identifier('NOT NULL'),
    member_id: identifier('NOT NULL'),
    enrolled_at: column<Date>('timestamptz NOT NULL'),
  },
  { primaryKey: ['course_id', 'member_id'], indexes: { enrolments_member: 'member_id' } },
);

/**
 * When each member joined and left (several periods after leaving and joining again): a member
 * is expected in a round when a period covers the round's start (query-api/src/core/absence.ts).
 */
export const enrolmentPeriods = defineTable(
  'enrolment_periods',
  {
    course_id: identifier('NOT NULL'),
    member_id: identifier('NOT NULL'),
    enrolled_at: column<Date>('timestamptz NOT NULL'),
    left_at: column<Date | null>('timestamptz'),
  },
  {
    primaryKey: ['course_id', 'member_id', 'enrolled_at'],
    indexes: { enrolment_periods_member: 'member_id, course_id' },
  },
);

/** Scan-only assistants of each course: who may open its rounds and scan. */
export const courseAssistants = defineTable(
  'course_assistants',
  {
    course_id: identifier('NOT NULL'),
    assistant_id: identifier('NOT NULL'),
    added_by: identifier('NOT NULL'),
    added_at: column<Date>('timestamptz NOT NULL'),
  },
  { primaryKey: ['course_id', 'assistant_id'], indexes: { course_assistants_assistant: 'assistant_id' } },
);
export type CourseAssistantRow = RowOf<typeof courseAssistants>;

export const coursesTables = [courses, rounds, enrolments, enrolmentPeriods, courseAssistants];

/** A course as read for a view: its row, its round ids in time order and its absences now. */
export type CourseWithRounds = CourseRow & { round_ids: string[] | null; absent_now: string | number };

/** A course as the list and the details show it (spec 001 section 3, Course). */
export const toCourseView = (row: CourseWithRounds): CourseView => ({
  _id: row.id,
  courseTopic: row.topic,
  courseDescription: row.description,
  courseImage: row.image_url,
  status: row.status,
  maxPeople: Number(row.max_people),
  creator: row.creator,
  rounds: row.round_ids ?? [],
  enrolled: Number(row.enrolled),
  participate: Number(row.participate),
  totalAttend: Number(row.total_attend),
  totalAbsent: Number(row.absent_now),
  createdAt: new Date(row.created_at).toISOString(),
  selfCheckIn: row.self_check_in ?? NO_SELF_CHECK_IN_RULES,
});
