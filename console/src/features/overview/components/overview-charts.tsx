import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { OverviewAnswer } from '../api/get-overview.ts';

const outcomeColour = { accepted: '#16a34a', refused: '#dc2626', voided: '#6b7280' } as const;

/** Scan attempts per day, stacked by outcome, in the admin's time zone. */
export function ScansChart({ days }: { days: OverviewAnswer['scansPerDay'] }) {
  const { t, i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language === 'th' ? 'th-TH' : 'en-US', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  const data = days.map((day) => ({ ...day, label: format.format(new Date(`${day.day}T00:00:00Z`)) }));
  const total = days.reduce((sum, day) => sum + day.accepted + day.refused + day.voided, 0);
  return (
    <figure className="card chart" aria-labelledby="scans-chart-title">
      <h2 id="scans-chart-title">{t('overview.scans')}</h2>
      <BarChart
        responsive
        style={{ width: '100%', height: 240 }}
        data={data}
        role="img"
        aria-label={t('overview.scans')}
      >
        <CartesianGrid strokeDasharray="3 3" />
        {/* Padded so the first day's label, centred on its bar, stays clear of the y axis's 0 on a phone. */}
        <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} padding={{ left: 16, right: 16 }} />
        <YAxis allowDecimals={false} width={40} />
        <Tooltip />
        <Legend />
        {(['accepted', 'refused', 'voided'] as const).map((outcome) => (
          <Bar
            key={outcome}
            dataKey={outcome}
            name={t(`audit.outcome.${outcome}`)}
            stackId="scans"
            fill={outcomeColour[outcome]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
      <figcaption className="muted" data-testid="scans-total">
        {(['accepted', 'refused', 'voided'] as const)
          .map((outcome) => `${t(`audit.outcome.${outcome}`)}: ${days.reduce((sum, day) => sum + day[outcome], 0)}`)
          .join(' · ')}
        {' · '}
        {t('overview.scansTotal', { count: total })}
      </figcaption>
    </figure>
  );
}

/** Each course's attendance rate over its rounds that ended in the period. */
export function RatesChart({ courses }: { courses: OverviewAnswer['courseRates'] }) {
  const { t } = useTranslation();
  return (
    <figure className="card chart" aria-labelledby="rates-chart-title">
      <h2 id="rates-chart-title">{t('overview.rates')}</h2>
      <p className="muted">{t('overview.ratesHint')}</p>
      {courses.length === 0 ? (
        <p className="muted">{t('overview.noRates')}</p>
      ) : (
        <>
          <BarChart
            responsive
            layout="vertical"
            style={{ width: '100%', height: Math.max(120, courses.length * 36 + 40) }}
            data={courses}
            role="img"
            aria-label={t('overview.rates')}
            margin={{ left: 8, right: 16 }}
          >
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" domain={[0, 100]} unit="%" />
            <YAxis type="category" dataKey="courseTopic" width={120} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Bar dataKey="rate" name={t('dashboard.attendanceRate')} fill="#0f766e" isAnimationActive={false} />
          </BarChart>
          <ul className="overview-list" data-testid="course-rates">
            {courses.map((course) => (
              <li key={course._id}>
                <span>{course.courseTopic}</span>
                <strong>
                  {t('overview.rate', {
                    rate: course.rate,
                    attended: course.attended,
                    expected: course.attended + course.absent,
                  })}
                </strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </figure>
  );
}
