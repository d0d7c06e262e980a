import { useEffect, useState } from 'react';

const TICK_MS = 1000;

/** The header's long English date and a clock that ticks every second (spec 000 section 1). */
export function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="clock" aria-live="off">
      <span data-testid="header-date">
        {now.toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' })}
      </span>
      <time data-testid="header-clock" dateTime={now.toISOString()}>
        {now.toLocaleTimeString('en-GB')}
      </time>
    </div>
  );
}
