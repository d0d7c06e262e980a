import { useTranslation } from 'react-i18next';
import { dateTime } from '../../../lib/dates.ts';
import { useProjectors } from '../api/get-projectors.ts';
import { Loading } from '../../../components/status-views.tsx';
import { TableWrap } from '../../../components/ui/table-wrap.tsx';

/**
 * On the admins' overview: how far the reports are behind what happened (the projectors' lag,
 * in events and seconds), for the one projector in the portal or each projector reading Kafka,
 * and, loudly, any report set aside at an event it could not apply.
 */
export function ProjectorLag() {
  const { t, i18n } = useTranslation();
  const projectors = useProjectors();
  const data = projectors.data;
  return (
    <section className="card" aria-labelledby="projectors-title" data-testid="projector-lag">
      <h2 id="projectors-title">{t('projectors.title')}</h2>
      {projectors.isPending ? (
        <Loading />
      ) : projectors.isError || !data ? (
        <p role="alert">{t('projectors.loadFailed')}</p>
      ) : (
        <>
          {data.failing.map((fault) => (
            <div key={fault.projection} role="alert" className="banner banner-error">
              <strong>
                {t('projectors.failing', {
                  projection: t(`projectors.report.${fault.projection}`, { defaultValue: fault.projection }),
                  position: fault.position,
                })}
              </strong>
              <p>
                {t('projectors.failingDetail', {
                  attempts: fault.attempts,
                  since: dateTime(fault.failingSince, i18n.language),
                  next: dateTime(fault.nextAttemptAt, i18n.language),
                })}
              </p>
              <code className="wrap-anywhere">{fault.error}</code>
            </div>
          ))}
          <p className="muted">{t(data.mode === 'kafka' ? 'projectors.kafka' : 'projectors.direct')}</p>
          <p>
            <strong>
              {t('projectors.whole', { events: data.readModels.lagEvents, seconds: data.readModels.lagSeconds })}
            </strong>
          </p>
          <TableWrap label={t('projectors.title')}>
            <table>
              <thead>
                <tr>
                  <th>{t('projectors.name')}</th>
                  <th>{t('projectors.partitions')}</th>
                  <th>{t('projectors.applied')}</th>
                  <th>{t('projectors.behindEvents')}</th>
                  <th>{t('projectors.behindSeconds')}</th>
                  <th>{t('projectors.updated')}</th>
                </tr>
              </thead>
              <tbody>
                {data.projectors.map((projector) => (
                  <tr key={projector.name}>
                    <th scope="row">{projector.name === 'in-process' ? t('projectors.inProcess') : projector.name}</th>
                    <td>{projector.partitions.length > 0 ? projector.partitions.join(', ') : '–'}</td>
                    <td>{projector.appliedEvents ?? '–'}</td>
                    <td>{projector.lagEvents}</td>
                    <td>{projector.lagSeconds}</td>
                    <td>{projector.updatedAt ? dateTime(projector.updatedAt, i18n.language) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </section>
  );
}
