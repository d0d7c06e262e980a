// The package is CommonJS, and Node finds no named export `Format` in it (tsx and vitest do).
import cliProgress, { type Options } from 'cli-progress';

/**
 * `npm run rebuild`'s progress bar. Until a rate is known cli-progress's estimate is not a number
 * of seconds ('0' before the first update, 'INF' while nothing has moved, 'NULL' without a
 * buffer), and its time format pads those to their last two characters: a rebuild began with
 * "0s left", then "NFs left". The estimate here is shown only once it is a number. Where the
 * output is not a terminal (a service's log, a pipe) the bar is a line every 5 seconds, where
 * cli-progress would print nothing at all through minutes of work.
 */
export const REBUILD_BAR: Options = {
  format: 'rebuild [{bar}] {percentage}% | {value}/{total} events | {eta_formatted}{stage}',
  noTTYOutput: true,
  notTTYSchedule: 5000,
  // Only the estimate ({eta_formatted}) is shown through this format, not the time taken.
  formatTime: (eta, options, roundTo) =>
    typeof eta === 'number' && Number.isFinite(eta)
      ? `${cliProgress.Format.TimeFormat(eta, options, roundTo)} left`
      : 'time left not known yet',
};
