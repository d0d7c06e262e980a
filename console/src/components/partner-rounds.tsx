import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import type { PartnerHome } from '@portal/contracts/views/partner-home';
import { dateTime } from '../lib/dates.ts';

/**
 * The rounds a partner is about to run: open now (with Start scanning, straight to the round's
 * scanner) and those starting within the week, each with how many of the enrolled were scanned.
 */
export function PartnerRounds({
  rounds,
  title,
  testId = 'partner-rounds',
}: {
  rounds: z.infer<typeof PartnerHome>['rounds'];
  /** Another heading, for the rounds someone scans in as an assistant. */
  title?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const headingId = `${testId}-title`;
  return (
    <section className="card partner-rounds" aria-labelledby={headingId}>
      <h2 id={headingId}>{title ?? t('partnerHome.roundsTitle')}</h2>
      {rounds.length === 0 ? (
        <p className="muted">{t('partnerHome.noRounds')}</p>
      ) : (
        <ol className="overview-list" data-testid={testId}>
          {rounds.map((round) => (
            <li key={round._id} className={round.active ? 'live' : undefined}>
              <div>
                <strong>{round.courseTopic}</strong> · {t('dashboard.round', { number: round.roundNumber })}
                {round.active && <span className="badge badge-approved">{t('partnerHome.live')}</span>}
                <div className="muted">
                  {dateTime(round.roundStartTime, i18n.language)} – {dateTime(round.roundEndTime, i18n.language)}
                </div>
                <div>{t('partnerHome.scanned', { attended: round.attended, enrolled: round.enrolled })}</div>
              </div>
              <Link
                className={round.active ? 'button primary' : 'button'}
                to={`/courses/${round.courseId}/rounds/${round._id}`}
              >
                {t(round.active ? 'partnerHome.startScanning' : 'partnerHome.openRound')}
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
