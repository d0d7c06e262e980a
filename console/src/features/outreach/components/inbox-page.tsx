import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../../../components/ui/pager.tsx';
import { dateTime } from '../../../lib/dates.ts';
import { useContactMessages } from '../api/get-contact-messages.ts';
import { useEmails } from '../api/get-emails.ts';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';

type Tab = 'contact' | 'outbox';

/**
 * The admins' messages (/inbox): what people sent through the contact form, and the outbox of
 * every e-mail sent from the portal with how it went. Newest first, 20 a page.
 */
export function InboxPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('contact');
  return (
    <section className="inbox">
      <h1>{t('inbox.title')}</h1>
      <div className="tabs" role="tablist">
        {(['contact', 'outbox'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'button primary' : 'button'}
            onClick={() => setTab(name)}
          >
            {t(`inbox.tab.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'contact' ? <ContactMessagesList /> : <OutboxList />}
    </section>
  );
}

/** The list's spinner, or why it failed with a retry. */
function NotLoaded({ query }: { query: { isPending: boolean; isError: boolean; refetch: () => unknown } }) {
  const { t } = useTranslation();
  if (query.isPending) return <Loading />;
  return <LoadFailed message={t('inbox.loadFailed')} onRetry={query.refetch} />;
}

function ContactMessagesList() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useContactMessages(page);
  if (!query.data) return <NotLoaded query={query} />;
  const { contactMessages, pages } = query.data;
  if (contactMessages.length === 0) return <p className="muted">{t('inbox.emptyContact')}</p>;
  return (
    <>
      <ul className="message-list" data-testid="contact-messages">
        {contactMessages.map((item) => (
          <li key={item._id} className="card message">
            <header>
              <strong>{item.subject || t('inbox.noSubject')}</strong>
              <time dateTime={item.receivedAt}>{dateTime(item.receivedAt, i18n.language)}</time>
            </header>
            <p className="muted">
              {item.name || t('inbox.erased')}
              {item.email && (
                <>
                  {' · '}
                  <a href={`mailto:${item.email}`}>{item.email}</a>
                </>
              )}
              {item.senderId ? ` · ${t('inbox.member')}` : ` · ${t('inbox.visitor')}`}
            </p>
            <p className="message-body">{item.message}</p>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} />
    </>
  );
}

function OutboxList() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useEmails(page);
  if (!query.data) return <NotLoaded query={query} />;
  const { emails, pages } = query.data;
  if (emails.length === 0) return <p className="muted">{t('inbox.emptyOutbox')}</p>;
  return (
    <>
      <ul className="message-list" data-testid="outbox">
        {emails.map((item) => (
          <li key={item._id} className="card message">
            <header>
              <strong>{item.subject}</strong>
              <span className={`badge email-${item.status}`}>{t(`inbox.status.${item.status}`)}</span>
            </header>
            <p className="muted">
              {t('inbox.fromTo', { from: item.senderName || t('inbox.erased'), to: item.to || t('inbox.erased') })}
              {' · '}
              <time dateTime={item.requestedAt}>{dateTime(item.requestedAt, i18n.language)}</time>
            </p>
            {item.failure && <p className="field-error">{item.failure}</p>}
            <p className="message-body">{item.message}</p>
          </li>
        ))}
      </ul>
      <Pager page={page} pages={pages} onPage={setPage} />
    </>
  );
}
