import type { NewEventOf } from '@portal/contracts/catalogue';
import {
  AllNotificationsRead,
  type NotificationEvent,
  NotificationsRead,
} from '@portal/contracts/notifications/notification.events';
import type { Command } from '../core/command.ts';

export type NotificationCommand = Command<'MarkRead', { ids: string[] }> | Command<'MarkAllRead'>;

/**
 * Marking read needs no state: a person's read marks only ever add up (their inbox stream is
 * appended to at any revision, never folded), so the decision is the command's events alone.
 */
export function decideRead(command: NotificationCommand): NewEventOf<NotificationEvent>[] {
  const readAt = command.metadata.now;
  switch (command.type) {
    case 'MarkRead':
      return [NotificationsRead.create({ ids: [...new Set(command.data.ids)], readAt })];
    case 'MarkAllRead':
      return [AllNotificationsRead.create({ readAt })];
  }
}
