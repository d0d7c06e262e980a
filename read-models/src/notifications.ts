import type { NotificationItem } from '@portal/contracts/views/notifications';
import { column, defineTable, identifier, nullableIdentifier, type RowOf } from '@portal/platform/read-models/table';

/**
 * The notifications read model: each notification (its id is the event's position), who hears
 * of it ('role:admin' or 'user:<account id>'), what each person has read, and the projection's
 * own copy of each course's creator, topic and members (so a deleted course still reaches its
 * members). Written by the projector's notifications projection; read by the bell and the page.
 */
export const notifications = defineTable('notifications', {
  id: identifier('PRIMARY KEY'),
  type: identifier<NotificationItem['type']>('NOT NULL'),
  course_id: nullableIdentifier(),
  course_topic: column<string | null>('text'),
  subject_id: nullableIdentifier(),
  detail: column<string | null>('text'),
  actor_id: nullableIdentifier(),
  created_at: column<Date>('timestamptz NOT NULL'),
});
export type NotificationRow = RowOf<typeof notifications>;

export const notificationAudience = defineTable(
  'notification_audience',
  { notification_id: identifier('NOT NULL'), audience: identifier('NOT NULL') },
  { primaryKey: ['audience', 'notification_id'] },
);

export const notificationReads = defineTable(
  'notification_reads',
  { account_id: identifier('NOT NULL'), notification_id: identifier('NOT NULL') },
  { primaryKey: ['account_id', 'notification_id'] },
);

/** Everything up to `read_at` is read ("mark all as read"). */
export const notificationReadAll = defineTable('notification_read_all', {
  account_id: identifier('PRIMARY KEY'),
  read_at: column<Date>('timestamptz NOT NULL'),
});

export const notifyCourses = defineTable('notify_courses', {
  course_id: identifier('PRIMARY KEY'),
  creator: identifier('NOT NULL'),
  topic: column<string>('text NOT NULL'),
});

export const notifyEnrolments = defineTable(
  'notify_enrolments',
  { course_id: identifier('NOT NULL'), member_id: identifier('NOT NULL') },
  { primaryKey: ['course_id', 'member_id'] },
);

export const notificationsTables = [
  notifications,
  notificationAudience,
  notificationReads,
  notificationReadAll,
  notifyCourses,
  notifyEnrolments,
];

/** A notification as a person's list shows it, with its category, whether they read it, and the names it mentions. */
export type ShownNotificationRow = Omit<NotificationRow, 'actor_id'> & {
  category: NotificationItem['category'];
  subject_name: string | null;
  starts_at: Date | null;
  is_read: boolean;
};

export const toNotificationItem = (row: ShownNotificationRow): NotificationItem => ({
  _id: row.id,
  type: row.type,
  category: row.category,
  courseId: row.course_id,
  courseTopic: row.course_topic,
  subjectId: row.subject_id,
  subjectName: row.subject_name,
  detail: row.detail,
  startsAt: row.starts_at ? new Date(row.starts_at).toISOString() : null,
  timestamp: new Date(row.created_at).toISOString(),
  isRead: row.is_read,
});
