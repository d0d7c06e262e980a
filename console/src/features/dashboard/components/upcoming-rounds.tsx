import { useTranslation } from 'react-i18next';
import { dateTime } from '../../../lib/dates.ts';
import type { MemberReportAnswer } from '../api/get-member-report.ts';

/**
 * The next three rounds of the member's courses. Joining a round means being scanned at it, so
 * Join Round brings up the member's own pass (when the dashboard is their own).
 */
export function UpcomingRounds({ rounds, own }: { rounds: MemberReportAnswer['upcoming']; own: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card upcoming" aria-labelledby="upcoming-title">
      <h2 id="upcoming-title">{t('dashboard.upcomingRounds')}</h2>
      {rounds.length === 0 ? (
        <p className="muted">{t('dashboard.noUpcoming')}</p>
      ) : (
        <ol>
          {rounds.map((round) => (
            <li key={round._id}>
              <div>
                <strong>{round.courseTopic}</strong> · {t('dashboard.round', { number: round.roundNumber })}
                <div className="muted">{dateTime(round.date, i18n.language)}</div>
              </div>
              {own && (
                <a className="button" href="#member-pass">
                  {t('dashboard.joinRound')}
                </a>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
