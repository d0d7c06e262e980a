import { join, resolve } from 'node:path';
/**
 * What a service needs from its environment when it runs alone (production): where to listen and
 * the secret that signs sessions, which command-api and query-api must share.
 */
export interface ServiceConfig {
  port: number;
  host: string;
  sessionSecret: string;
  secureCookie: boolean;
}

export const MIN_SECRET_LENGTH = 32;

export function serviceConfigFromEnv(defaultPort: number, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const sessionSecret = env.SESSION_SECRET ?? '';
  if (sessionSecret.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `SESSION_SECRET must be set to at least ${MIN_SECRET_LENGTH} characters (the same value for command-api and query-api).`,
    );
  }
  if (!env.DATABASE_URL) {
    throw new Error('DATABASE_URL must be set when a service runs alone; `npm start` runs them all on PGlite.');
  }
  return {
    port: Number(env.PORT ?? defaultPort),
    host: env.HOST ?? '127.0.0.1',
    sessionSecret,
    secureCookie: env.COOKIE_SECURE === 'true',
  };
}

/** Where uploaded files (profile photos) are kept: UPLOADS_DIR, else DATA_DIR/uploads. */
export const uploadsDirFromEnv = () =>
  resolve(process.env.UPLOADS_DIR || join(process.env.DATA_DIR || './data', 'uploads'));
