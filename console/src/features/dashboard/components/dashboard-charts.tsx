import { useTranslation } from 'react-i18next';
import { CartesianGrid, Line, LineChart, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { MemberCourse } from '../api/get-member-report.ts';
import { type TrendPoint, attendanceTrend } from './attendance-trend.ts';

const statuses = ['Completed', 'In Progress', 'Upcoming'] as const;
/** Colours that read on both themes. */
const statusColour = { Completed: '#16a34a', 'In Progress': '#0ea5e9', Upcoming: '#f59e0b' } as const;

/** The doughnut of the member's courses by status, with the figures written out beside it. */
/** `own` when members look at their own courses; admins see another member's. */
export function StatusChart({ courses, own }: { courses: readonly MemberCourse[]; own: boolean }) {
  const { t } = useTranslation();
  const data = statuses.map((status) => ({
    status,
    name: t(`dashboard.status.${status}`),
    value: courses.filter((course) => course.status === status).length,
    fill: statusColour[status],
  }));
  return (
    <figure className="card chart" aria-labelledby="status-chart-title">
      <h2 id="status-chart-title">{t(own ? 'dashboard.statusChart' : 'dashboard.statusChartOther')}</h2>
      <PieChart
        responsive
        style={{ width: '100%', height: 220 }}
        role="img"
        aria-label={t(own ? 'dashboard.statusChart' : 'dashboard.statusChartOther')}
      >
        <Pie data={data} dataKey="value" nameKey="name" innerRadius="55%" outerRadius="85%" isAnimationActive={false} />
        <Tooltip />
      </PieChart>
      <ul className="chart-legend">
        {data.map((entry) => (
          <li key={entry.status} data-status={entry.status}>
            <span className="swatch" style={{ background: entry.fill }} aria-hidden="true" />
            {entry.name}: <strong>{entry.value}</strong>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** Short dates on the axis; with the time too when two rounds fall on one day. */
function labelled(points: TrendPoint[], language: string) {
  const locale = language === 'th' ? 'th-TH' : 'en-US';
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
  const days = points.map((point) => day.format(new Date(point.date)));
  const withTime = new Set(days).size < days.length;
  const moment = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });
  return points.map((point, index) => ({
    ...point,
    label: withTime ? moment.format(new Date(point.date)) : days[index]!,
  }));
}

/** The member's attendance rate after each round held, over time (DESIGN: real scans, not samples). */
export function TrendChart({ courses }: { courses: readonly MemberCourse[] }) {
  const { t, i18n } = useTranslation();
  const points = labelled(attendanceTrend(courses), i18n.language);
  return (
    <figure className="card chart" aria-labelledby="trend-chart-title">
      <h2 id="trend-chart-title">{t('dashboard.trend')}</h2>
      {points.length === 0 ? (
        <p className="muted">{t('dashboard.trendEmpty')}</p>
      ) : (
        <>
          <LineChart
            responsive
            style={{ width: '100%', height: 220 }}
            data={points}
            role="img"
            aria-label={t('dashboard.trend')}
            margin={{ top: 8, right: 16, bottom: 8, left: 0 }}
          >
            <CartesianGrid strokeDasharray="3 3" />
            {/* A line starts on the axis: padded by half a label with its time ('24 พ.ย. 18:46') so the
                first stays clear of the y axis's labels and the last inside the chart, on a phone. */}
            <XAxis dataKey="label" tick={{ fontSize: 12 }} minTickGap={16} padding={{ left: 40, right: 24 }} />
            <YAxis domain={[0, 100]} unit="%" width={48} />
            <Tooltip formatter={(value) => [`${String(value)}%`, t('dashboard.attendanceRate')]} />
            <Line type="monotone" dataKey="rate" stroke="#0f766e" strokeWidth={2} isAnimationActive={false} />
          </LineChart>
          <figcaption className="muted">
            {t('dashboard.trendCaption', { attended: points.at(-1)!.attended, held: points.at(-1)!.held })}
          </figcaption>
        </>
      )}
    </figure>
  );
}
