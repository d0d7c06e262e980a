// The package is CommonJS, and Node finds no named export `Format` in it (tsx and vitest do).
import cliProgress, { type Options } from 'cli-progress';

/**
 * A command's progress bar (`npm run rebuild`, `backup`, `restore`) in `format`. Where the output
 * is not a terminal (a service's log, a pipe, cron) it is a line every 5 seconds, where
 * cli-progress would print nothing through minutes of work. Until a rate is known cli-progress's
 * estimate ({eta_formatted}) is not a number of seconds ('0' before the first update, 'INF' while
 * nothing has moved, 'NULL' without a buffer), and its time format pads those to their last two
 * characters: a rebuild began with "0s left", then "NFs left". It is shown here only once it is a
 * number, as "… left"; so a format shows the estimate alone, without a word after it.
 */
export const progressBar = (format: string): Options => ({
  format,
  noTTYOutput: true,
  notTTYSchedule: 5000,
  formatTime: (eta, options, roundTo) =>
    typeof eta === 'number' && Number.isFinite(eta)
      ? `${cliProgress.Format.TimeFormat(eta, options, roundTo)} left`
      : 'time left not known yet',
});

/** `npm run rebuild`'s bar. */
export const REBUILD_BAR = progressBar(
  'rebuild [{bar}] {percentage}% | {value}/{total} events | {eta_formatted}{stage}',
);
