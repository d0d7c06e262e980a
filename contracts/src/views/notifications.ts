import { z } from 'zod';
import { courseNotificationTypes, systemNotificationTypes } from '../notifications/notification.events.ts';
import { pageParam, pageSizeParam, pageFields } from './query-params.ts';

export const notificationFilters = ['all', 'unread', 'system', 'course'] as const;

export const NotificationQuery = z.object({
  filter: z.enum(notificationFilters, { error: 'notifications.filter' }).default('all'),
  page: pageParam.default(1),
  pageSize: pageSizeParam(20),
});

export const NotificationItem = z.object({
  _id: z.string(),
  type: z.enum([...courseNotificationTypes, ...systemNotificationTypes]),
  category: z.enum(['system', 'course']),
  courseId: z.string().nullable(),
  courseTopic: z.string().nullable(),
  /** The person it is about (an enrolment, a registration), by name; blank once erased. */
  subjectId: z.string().nullable(),
  subjectName: z.string().nullable(),
  /** What changed, for course_updated: details, public, private, roundAdded, roundMoved, roundCancelled. */
  detail: z.string().nullable(),
  /** For round_starting: when the round starts. */
  startsAt: z.string().nullable(),
  timestamp: z.string(),
  isRead: z.boolean(),
});
export type NotificationItem = z.infer<typeof NotificationItem>;

export const NotificationCounts = z.object({
  all: z.number(),
  unread: z.number(),
  system: z.number(),
  course: z.number(),
});

export const NotificationList = z.object({
  success: z.literal(true),
  notifications: z.array(NotificationItem),
  counts: NotificationCounts,
  ...pageFields,
  serverTime: z.string(),
  message: z.string(),
});
