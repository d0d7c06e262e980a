import { z } from 'zod';
import { createDecoder, defineEvent } from '../catalogue.ts';

/**
 * What a person has read of their notifications, in their own stream `inbox-<accountId>`. The
 * notifications themselves are not events: the projector derives them from what happened
 * (courses, enrolments, approvals), and the query API adds the rounds about to start.
 */
export const inboxStream = (accountId: string) => `inbox-${accountId}`;
export const inboxOwnerOf = (streamId: string) => streamId.slice('inbox-'.length);

const at = z.iso.datetime({ offset: true });

export const NotificationsRead = defineEvent(
  'NotificationsRead',
  z.object({ ids: z.array(z.string()).min(1), readAt: at }),
);
/** Everything shown until `readAt` is read; what arrives later is not. */
export const AllNotificationsRead = defineEvent('AllNotificationsRead', z.object({ readAt: at }));

export const notificationEvents = [NotificationsRead, AllNotificationsRead] as const;
export const decodeNotificationEvent = createDecoder(notificationEvents);
export type NotificationEvent = NonNullable<ReturnType<typeof decodeNotificationEvent>>;

/** The kinds of notification and their tab (spec 001 section 4: system or course). */
export const courseNotificationTypes = [
  'course_created',
  'course_updated',
  'course_deleted',
  'new_enrollment',
  'round_starting',
  'assistant_added',
] as const;
export const systemNotificationTypes = ['new_registration', 'registration_approved'] as const;
export type NotificationType = (typeof courseNotificationTypes)[number] | (typeof systemNotificationTypes)[number];
