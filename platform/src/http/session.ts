import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { type Role, roles } from '@portal/contracts/accounts/account.events';
import type { SqlDatabase } from '../store/sql.ts';
import { type SessionKey, forgetExpiredSessions } from './revocations.ts';
import { sessionMemory } from './session-memory.ts';
import { verifiedTokens } from './verified-tokens.ts';
import { forbidden } from '../domain/errors.ts';

/** What a signed session says about its holder. Routes trust only this, never the browser. */
export const SessionClaims = z.object({
  sub: z.string(),
  role: z.enum(roles),
  username: z.string(),
  /** When it was issued, in milliseconds (iat has whole seconds only). */
  iatMs: z.number(),
  /** A random id of this session (what logout ends); tokens issued before it existed have none. */
  sid: z.string().optional(),
});
type SessionClaims = z.infer<typeof SessionClaims>;
export type Session = { accountId: string; role: Role; username: string };
/** A verified session as a request carries it: who, and which session (what logout ends). */
export type RequestSession = Session & SessionKey;

export const SESSION_COOKIE = 'token';

/**
 * How long a session lasts (OWASP ASVS 3.3.2): it ends `idleMinutes` after it was last used, and
 * `maxHours` after sign-in however busy it is; SESSION_IDLE_MINUTES and SESSION_MAX_HOURS.
 */
export interface SessionLifetimes {
  idleMinutes: number;
  maxHours: number;
}
export const DEFAULT_LIFETIMES: SessionLifetimes = { idleMinutes: 30, maxHours: 12 };

/** Use is noted at most this often per session, so reads do not each write. */
const ACTIVITY_STEP_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified session, or null when the request carries none (or a bad one). */
    session: RequestSession | null;
  }
  interface FastifyInstance {
    /** Signs a new session; `after` (ms) dates it after that moment, such as a revocation it must outlive. */
    issueSession(reply: FastifyReply, session: Session, after?: number): Promise<string>;
    /**
     * Sessions ended (a logout, a revocation) and the change committed: this process checks every
     * session anew (./session-memory.ts). Other processes hear of it by the change's NOTIFY.
     */
    sessionsEnded(): void;
  }
}

export interface SessionOptions {
  secret: string;
  /** Where revocations are kept (./revocations.ts); without it, tokens are trusted until they expire. */
  revocations?: SqlDatabase;
  /** Send the cookie only over HTTPS (on behind a TLS proxy). */
  secureCookie?: boolean;
  lifetimes?: SessionLifetimes;
  /** The clock sessions are timed by; tests pass their own. */
  now?: () => number;
}

/**
 * Signed sessions for both APIs: a JWT in an httpOnly cookie for the console, and the same token
 * as `Authorization: Bearer` for devices. Decorates every request with `session`.
 */
export const sessions = fp<SessionOptions>(
  async (app: FastifyInstance, options) => {
    const { idleMinutes, maxHours } = options.lifetimes ?? DEFAULT_LIFETIMES;
    const now = options.now ?? Date.now;
    const idleMs = idleMinutes * 60_000;
    const maxMs = maxHours * 3_600_000;
    await app.register(cookie);
    await app.register(jwt, { secret: options.secret, sign: { expiresIn: `${maxHours}h` } });
    const verified = verifiedTokens((token) => app.jwt.verify(token));
    app.decorateRequest('session', null);
    const memory = options.revocations && (await sessionMemory(options.revocations));
    app.decorate('sessionsEnded', () => memory?.forgetAll());
    if (memory) app.addHook('onClose', () => memory.stop());
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      const bearer = header?.startsWith('Bearer ');
      const token = bearer ? header!.slice('Bearer '.length) : request.cookies[SESSION_COOKIE];
      if (!token) return;
      // The browser sends the cookie whoever made the page: a command it carries must come from our own.
      if (!bearer && !SAFE_METHODS.has(request.method) && !fromOwnOrigin(request)) {
        throw forbidden('request.crossSite');
      }
      let claims: SessionClaims;
      try {
        claims = SessionClaims.parse(verified(token));
      } catch {
        return; // an expired or forged token is the same as none
      }
      const at = now();
      if (at - claims.iatMs > maxMs) return;
      const key: SessionKey = {
        sessionId: claims.sid ?? `${claims.sub}:${claims.iatMs}`,
        accountId: claims.sub,
        issuedAtMs: claims.iatMs,
      };
      if (memory) {
        const lastUsedOf = (seen: number | null) => Math.max(seen ?? 0, claims.iatMs);
        // Remembered as idle: read again, another process may have noted a later use.
        const state = await memory.stateOf(key, ({ lastSeenMs }) => at - lastUsedOf(lastSeenMs) <= idleMs);
        const lastUsed = lastUsedOf(state.lastSeenMs);
        if (state.ended || at - lastUsed > idleMs) return;
        if (at - lastUsed >= ACTIVITY_STEP_MS) await memory.noteUse(key, at);
      }
      request.session = { ...key, role: claims.role, username: claims.username };
    });
    app.decorate('issueSession', async (reply: FastifyReply, session: Session, after?: number) => {
      const token = app.jwt.sign({
        sub: session.accountId,
        role: session.role,
        username: session.username,
        iatMs: after === undefined ? now() : Math.max(now(), Math.floor(after) + 1),
        sid: randomUUID(),
      });
      if (options.revocations) await forgetExpiredSessions(options.revocations, now() - maxMs);
      reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookie ?? false,
        path: '/',
        maxAge: maxHours * 3600,
      });
      return token;
    });
  },
  { name: 'portal-sessions' },
);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request was made by a page of this portal: its Origin names this host, or, from a
 * browser that sends no Origin, Sec-Fetch-Site says same-origin (or none: typed by the user). A
 * request with neither comes from no modern browser, so no other site can have made it.
 */
function fromOwnOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!URL.canParse(origin)) return false; // `null`: a sandboxed frame, a redirect, a file
    return new URL(origin).host === request.host;
  }
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
