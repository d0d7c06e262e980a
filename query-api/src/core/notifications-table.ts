import type { Sql } from '@portal/platform/store/sql';
import { type ShownNotificationRow, toNotificationItem } from '@portal/read-models/notifications';
import { systemNotificationTypes } from '@portal/contracts/notifications/notification.events';

/** The system tab's kinds, as SQL literals (constants, never user input). */
const SYSTEM_TYPES = systemNotificationTypes.map((type) => `'${type}'`).join(', ');

interface Viewer {
  accountId: string;
  role: string;
}
type Filter = 'all' | 'unread' | 'system' | 'course';

/**
 * The viewer's notifications: the ones the projector addressed to them or their role (less what
 * they did themselves), and the rounds of their courses starting within the hour, which appear
 * an hour before the start. Read: marked one by one, or shown before their last "mark all".
 */
const SHOWN = `
  WITH mine AS (
    SELECT n.id, n.type, n.course_id, n.course_topic, n.subject_id, n.detail, n.created_at,
           NULL::timestamptz AS starts_at
      FROM rm.notifications n
     WHERE EXISTS (SELECT 1 FROM rm.notification_audience a
                    WHERE a.notification_id = n.id AND a.audience IN ('user:' || $1, 'role:' || $2))
       AND n.actor_id IS DISTINCT FROM $1
    UNION ALL
    SELECT 'round-' || r.id, 'round_starting', r.course_id, c.topic, NULL, NULL,
           r.starts_at - interval '1 hour', r.starts_at
      FROM rm.rounds r JOIN rm.courses c ON c.id = r.course_id
     WHERE r.starts_at > $3::timestamptz AND r.starts_at <= $3::timestamptz + interval '1 hour'
       AND (c.creator = $1 OR EXISTS (SELECT 1 FROM rm.enrolments e
                                       WHERE e.course_id = r.course_id AND e.member_id = $1))
  )
  SELECT mine.*,
         CASE WHEN mine.type IN (${SYSTEM_TYPES}) THEN 'system' ELSE 'course' END
           AS category,
         (mine.created_at <= coalesce(ra.read_at, '-infinity'::timestamptz)
          OR EXISTS (SELECT 1 FROM rm.notification_reads nr
                      WHERE nr.account_id = $1 AND nr.notification_id = mine.id)) AS is_read
    FROM mine LEFT JOIN rm.notification_read_all ra ON ra.account_id = $1`;

const WHERE: Record<Filter, string> = {
  all: 'TRUE',
  unread: 'NOT is_read',
  system: `category = 'system'`,
  course: `category = 'course'`,
};

export async function notificationsOf(
  sql: Sql,
  viewer: Viewer,
  query: { filter: Filter; page: number; pageSize: number },
  now: Date,
) {
  const params = [viewer.accountId, viewer.role, now.toISOString()];
  // Each tab's count, by the same condition that fills the tab.
  const tabs = Object.entries(WHERE).map(([tab, where]) => `count(*) FILTER (WHERE ${where})::int AS "${tab}"`);
  const [found] = await sql.query<Record<Filter, number>>(`SELECT ${tabs.join(', ')} FROM (${SHOWN}) shown`, params);
  const rows = await sql.query<ShownNotificationRow>(
    `SELECT shown.*, acc.full_name AS subject_name
       FROM (${SHOWN}) shown LEFT JOIN rm.accounts acc ON acc.id = shown.subject_id
      WHERE ${WHERE[query.filter]}
      ORDER BY shown.created_at DESC, shown.id DESC
      LIMIT $4 OFFSET $5`,
    [...params, query.pageSize, (query.page - 1) * query.pageSize],
  );
  const counts = found ?? { all: 0, unread: 0, system: 0, course: 0 };
  return {
    counts,
    total: counts[query.filter],
    notifications: rows.map(toNotificationItem),
  };
}
