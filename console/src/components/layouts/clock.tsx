import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const TICK_MS = 1000;

/**
 * The header's long date and a clock that ticks every second (spec 000 section 1): the long
 * English date, or in Thai the Thai date in the Buddhist era (พ.ศ.).
 */
export function Clock() {
  const { i18n } = useTranslation();
  const locale = i18n.language === 'th' ? 'th-TH' : 'en-US';
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="clock" aria-live="off">
      <span className="date-long" data-testid="header-date">
        {now.toLocaleDateString(locale, { dateStyle: 'full' })}
      </span>
      {/* On a phone the same date, shorter (still the Buddhist era in Thai), so it fits one line. */}
      <span className="date-short" aria-hidden="true" data-testid="header-date-short">
        {now.toLocaleDateString(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })}
      </span>
      <time data-testid="header-clock" dateTime={now.toISOString()}>
        {now.toLocaleTimeString('en-GB')}
      </time>
    </div>
  );
}
