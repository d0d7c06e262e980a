import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { LoadFailed, Loading } from '../../../components/status-views.tsx';
import { feedAddresses, useCalendarLink, useIssueCalendar } from '../api/calendar-link.ts';

/**
 * "Your rounds in your calendar" (settings): the person's private feed address to subscribe to
 * in any calendar app, to copy or open there, and a reset for when it was shared by mistake.
 */
export function CalendarCard() {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const inputId = useId();
  const link = useCalendarLink();
  const issue = useIssueCalendar();
  const [confirming, setConfirming] = useState(false);

  const issueNow = async () => {
    setConfirming(false);
    try {
      const done = await issue.mutateAsync();
      toast('success', done.message);
    } catch (error) {
      toast('error', error instanceof ApiError ? error.message : t('calendar.failed'));
    }
  };
  const address = link.data?.path ? feedAddresses(link.data.path, i18n.language) : null;
  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address.https);
      toast('success', t('calendar.copied'));
    } catch {
      toast('error', t('calendar.copyFailed'));
    }
  };

  return (
    <section className="card form-card calendar-card" id="calendar" aria-labelledby="calendar-title">
      <h2 id="calendar-title">{t('calendar.title')}</h2>
      <p className="muted">{t('calendar.explain')}</p>
      {link.isPending ? (
        <Loading />
      ) : link.isError ? (
        <LoadFailed message={t('calendar.loadFailed')} onRetry={link.refetch} />
      ) : address ? (
        <>
          <label htmlFor={inputId}>{t('calendar.address')}</label>
          <input
            id={inputId}
            className="calendar-address"
            readOnly
            value={address.https}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="calendar-address"
          />
          <p className="muted">{t('calendar.private')}</p>
          <div className="actions">
            <button type="button" className="button primary" onClick={() => void copy()}>
              {t('calendar.copy')}
            </button>
            <a className="button" href={address.webcal}>
              {t('calendar.subscribe')}
            </a>
            <button type="button" className="button" disabled={issue.isPending} onClick={() => setConfirming(true)}>
              {t('calendar.reset')}
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="button primary" disabled={issue.isPending} onClick={() => void issueNow()}>
          {t('calendar.create')}
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('calendar.resetTitle')}
          confirmLabel={t('calendar.reset')}
          destructive
          onCancel={() => setConfirming(false)}
          onConfirm={() => void issueNow()}
        >
          {t('calendar.resetBody')}
        </ConfirmDialog>
      )}
    </section>
  );
}
