import { createHmac } from 'node:crypto';

/** How scanning behaves: the pass secret and the round's margins (README, Configuration). */
export interface AttendanceConfig {
  /** Signs members' pass codes; command-api (reads them) and query-api (issues them) share it. */
  passSecret: string;
  /** Scanning opens this many minutes before a round starts (default 0). */
  opensEarlyMinutes: number;
  /** And closes this many minutes after it ends (default 0). */
  closesLateMinutes: number;
  /** A scan more than this many minutes after the start is marked late (default 15). */
  lateAfterMinutes: number;
}

const minutes = (value: string | undefined, fallback: number, name: string) => {
  const parsed = value === undefined || value === '' ? fallback : Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a number of minutes, 0 or more.`);
  return parsed;
};

/** From the environment; without PASS_SECRET the pass secret is derived from the session secret. */
export function attendanceConfig(sessionSecret: string, env: NodeJS.ProcessEnv = process.env): AttendanceConfig {
  return {
    passSecret: env.PASS_SECRET || createHmac('sha256', sessionSecret).update('attendance-pass').digest('base64url'),
    opensEarlyMinutes: minutes(env.SCAN_OPENS_EARLY_MINUTES, 0, 'SCAN_OPENS_EARLY_MINUTES'),
    closesLateMinutes: minutes(env.SCAN_CLOSES_LATE_MINUTES, 0, 'SCAN_CLOSES_LATE_MINUTES'),
    lateAfterMinutes: minutes(env.LATE_AFTER_MINUTES, 15, 'LATE_AFTER_MINUTES'),
  };
}
