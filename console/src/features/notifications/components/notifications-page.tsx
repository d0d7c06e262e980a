import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Pager } from '../../../components/ui/pager.tsx';
import { useSession } from '../../../lib/session.tsx';
import { ageText } from '../age.ts';
import { type Filter, useNotifications } from '../api/get-notifications.ts';
import { useMarkAllRead } from '../api/mark-all-read.ts';
import { useMarkRead } from '../api/mark-read.ts';
import { describe } from '../describe.ts';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';

const tabs: readonly Filter[] = ['all', 'unread', 'system', 'course'];

/**
 * Notifications (/notification, spec 001 sections 2.11 and 4): the four tabs with their counts,
 * mark one or all as read, each with its age and an action, all from what really happened.
 */
export function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const list = useNotifications(filter, page);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const counts = list.data?.counts;
  // Ages are counted from the server's clock at the time of the answer (asked again every minute).
  const now = list.data ? new Date(list.data.serverTime).getTime() : 0;

  return (
    <section className="notifications">
      <div className="page-heading">
        <h1>{t('screen.notification')}</h1>
        <button
          type="button"
          className="button"
          disabled={!counts?.unread || markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {t('notifications.markAll')}
        </button>
      </div>
      <div className="tabs" role="tablist" aria-label={t('screen.notification')}>
        {tabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={filter === tab}
            className={filter === tab ? 'button primary' : 'button'}
            onClick={() => {
              setFilter(tab);
              setPage(1);
            }}
          >
            {t(`notifications.tab.${tab}`)} ({counts ? counts[tab] : '…'})
          </button>
        ))}
      </div>
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <LoadFailed message={t('notifications.loadFailed')} onRetry={list.refetch} />
      ) : list.data.notifications.length === 0 ? (
        <p className="muted">{t(`notifications.empty.${filter}`)}</p>
      ) : (
        <>
          <ul className="message-list" data-testid="notifications">
            {list.data.notifications.map((item) => {
              const text = describe(item, user?.role ?? 'member', t, i18n.language, now);
              return (
                <li key={item._id} className={`card message notification${item.isRead ? '' : ' unread'}`}>
                  <header>
                    <strong>{text.title}</strong>
                    {/* A round about to start says when it starts; anything else how long ago it happened. */}
                    <time dateTime={item.startsAt ?? item.timestamp}>
                      {ageText(item.startsAt ?? item.timestamp, now, i18n.language)}
                    </time>
                  </header>
                  <p>{text.message}</p>
                  <div className="toolbar">
                    {text.action && (
                      <Link className="button primary" to={text.action.to}>
                        {text.action.text}
                      </Link>
                    )}
                    {!item.isRead && (
                      <button
                        type="button"
                        className="button"
                        disabled={markRead.isPending}
                        onClick={() => markRead.mutate([item._id])}
                      >
                        {t('notifications.markRead')}
                      </button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
          <Pager page={page} pages={list.data.pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
