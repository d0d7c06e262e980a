import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateTime } from '../../../lib/dates.ts';
import type { PartnerHomeAnswer } from '../api/partner-home.ts';

/**
 * The rounds a partner is about to run: open now (with Start scanning, straight to the round's
 * scanner) and those starting within the week, each with how many of the enrolled were scanned.
 */
export function PartnerRounds({ rounds }: { rounds: PartnerHomeAnswer['rounds'] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card partner-rounds" aria-labelledby="partner-rounds-title">
      <h2 id="partner-rounds-title">{t('partnerHome.roundsTitle')}</h2>
      {rounds.length === 0 ? (
        <p className="muted">{t('partnerHome.noRounds')}</p>
      ) : (
        <ol className="overview-list" data-testid="partner-rounds">
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
