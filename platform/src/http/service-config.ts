import { join, resolve } from 'node:path';
import { DEFAULT_LIFETIMES, type SessionLifetimes } from './session.ts';
/**
 * What a service needs from its environment when it runs alone (production): where to listen and
 * the secret that signs sessions, which command-api and query-api must share.
 */
export interface ServiceConfig {
  port: number;
  host: string;
  sessionSecret: string;
  secureCookie: boolean;
  trustProxy: TrustProxy;
  sessionLifetimes: SessionLifetimes;
}

/** Which proxies may say who the client is (X-Forwarded-For, -Proto, -Host): none, a hop count, or addresses. */
export type TrustProxy = false | number | string;

/**
 * TRUST_PROXY: unset or empty, no proxy is trusted and the client is whoever connected (a made-up
 * X-Forwarded-For changes nothing); a number, that many proxies in front (1 for one nginx); else a
 * comma-separated list of proxy addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`).
 */
export function trustProxyFromEnv(env: NodeJS.ProcessEnv = process.env): TrustProxy {
  const value = (env.TRUST_PROXY ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') {
    throw new Error('TRUST_PROXY=true would believe any client about its address: give a hop count or addresses.');
  }
  return value;
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
    port: portFromEnv(env, 'PORT', defaultPort),
    host: env.HOST ?? '127.0.0.1',
    sessionSecret,
    secureCookie: env.COOKIE_SECURE === 'true',
    trustProxy: trustProxyFromEnv(env),
    sessionLifetimes: sessionLifetimesFromEnv(env),
  };
}

/**
 * A port to listen on from `env[name]`: `fallback` when unset or blank, else a whole number from 1
 * to 65535. Anything else stops the start with a message naming it (Number('') is 0, a port the
 * system picks, and the address printed for it would be wrong); `orElse` names what else the
 * caller accepts, for that message.
 */
export function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, orElse?: string): number {
  const text = (env[name] ?? '').trim();
  if (text === '') return fallback;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65_535) {
    throw new Error(`${name} must be a port number (1-65535)${orElse ? ` or ${orElse}` : ''}, not "${text}".`);
  }
  return port;
}

/** SESSION_IDLE_MINUTES (30) and SESSION_MAX_HOURS (12): when an unused, and any, session ends. */
export function sessionLifetimesFromEnv(env: NodeJS.ProcessEnv = process.env): SessionLifetimes {
  const read = (name: string, fallback: number) => {
    const text = (env[name] ?? '').trim();
    if (text === '') return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${text}".`);
    return value;
  };
  return {
    idleMinutes: read('SESSION_IDLE_MINUTES', DEFAULT_LIFETIMES.idleMinutes),
    maxHours: read('SESSION_MAX_HOURS', DEFAULT_LIFETIMES.maxHours),
  };
}

/** Where uploaded files (profile photos) are kept: UPLOADS_DIR, else DATA_DIR/uploads. */
export const uploadsDirFromEnv = () =>
  resolve(process.env.UPLOADS_DIR || join(process.env.DATA_DIR || './data', 'uploads'));
