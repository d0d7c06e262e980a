import type { TFunction } from 'i18next';
import type { NotificationItem } from '@portal/contracts/views/notifications';
import { homeOf } from '../../lib/session.tsx';
import { ageText } from './age.ts';

export interface Described {
  title: string;
  message: string;
  action: { text: string; to: string } | null;
}

/**
 * A notification in the reader's words, with an action that goes to a page the reader can
 * open: staff to the course or the round, members to their own home (catalogue or pass).
 */
export function describe(item: NotificationItem, role: string, t: TFunction, language: string, now: number): Described {
  const topic = item.courseTopic ?? '';
  const name = item.subjectName || t('notifications.someone');
  const staff = role === 'admin' || role === 'partner';
  const course = item.courseId && staff ? `/courses/${item.courseId}` : '/e-market#catalogue';
  switch (item.type) {
    case 'course_created':
      return {
        title: t('notifications.courseCreated'),
        message: t('notifications.courseCreatedText', { topic }),
        action: { text: t('notifications.viewCourse'), to: course },
      };
    case 'course_updated':
      return {
        title: t('notifications.courseUpdated'),
        message: t(`notifications.updated.${item.detail ?? 'details'}`, { topic }),
        action: { text: t('notifications.viewCourse'), to: course },
      };
    case 'course_deleted':
      return {
        title: t('notifications.courseDeleted'),
        message: t('notifications.courseDeletedText', { topic }),
        action: staff ? { text: t('notifications.viewCourses'), to: '/courses' } : null,
      };
    case 'new_enrollment':
      return {
        title: t('notifications.newEnrollment'),
        message: t('notifications.newEnrollmentText', { name, topic }),
        action: { text: t('notifications.viewCourse'), to: course },
      };
    case 'round_starting': {
      const roundId = item._id.replace(/^round-/, '');
      return {
        title: t('notifications.roundStarting'),
        message: t('notifications.roundStartingText', {
          topic,
          when: ageText(item.startsAt ?? item.timestamp, now, language),
        }),
        action: staff
          ? { text: t('notifications.openRound'), to: `/courses/${item.courseId}/rounds/${roundId}` }
          : { text: t('notifications.showPass'), to: '/e-market#member-pass' },
      };
    }
    case 'new_registration':
      return {
        title: t('notifications.newRegistration'),
        message: t('notifications.newRegistrationText', { name }),
        action: role === 'admin' ? { text: t('notifications.reviewRegistrations'), to: '/registrations' } : null,
      };
    case 'assistant_added':
      return {
        title: t('notifications.assistantAdded'),
        message: t('notifications.assistantAddedText', { topic }),
        action: { text: t('notifications.goHome'), to: homeOf(role) },
      };
    case 'registration_approved':
      return {
        title: t('notifications.approved'),
        message: t('notifications.approvedText'),
        action: { text: t('notifications.goHome'), to: homeOf(role) },
      };
  }
}
