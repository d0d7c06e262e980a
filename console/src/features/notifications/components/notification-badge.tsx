import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useLiveNotifications } from '../api/live-notifications.ts';
import { useUnreadCount } from '../api/get-notifications.ts';

/** The header's bell: how many notifications are unread, kept current by the live stream. */
export function NotificationBadge() {
  const { t } = useTranslation();
  useLiveNotifications(true);
  const unread = useUnreadCount(true);
  const count = unread.data ?? 0;
  return (
    <Link
      to="/notification"
      className="button ghost notification-bell"
      aria-label={t('notifications.badge', { count })}
      data-testid="notification-badge"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {count > 0 && <span className="badge-count">{count > 99 ? '99+' : count}</span>}
    </Link>
  );
}
