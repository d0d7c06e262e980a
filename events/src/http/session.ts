import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { type Role, roles } from '../accounts/account.events.ts';
import type { Sql } from '../store/sql.ts';
import { HttpError } from './errors.ts';
import { isRevoked } from './revocations.ts';

/** What a signed session says about its holder. Routes trust only this, never the browser. */
export const SessionClaims = z.object({
  sub: z.string(),
  role: z.enum(roles),
  username: z.string(),
  /** When it was issued, in milliseconds (iat has whole seconds only). */
  iatMs: z.number(),
});
type SessionClaims = z.infer<typeof SessionClaims>;
export type Session = { accountId: string; role: Role; username: string };
/** A verified session as a request carries it: who, and when it was issued (what logout ends). */
export type RequestSession = Session & { issuedAtMs: number };

export const SESSION_COOKIE = 'token';
export const SESSION_HOURS = 12;

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified session, or null when the request carries none (or a bad one). */
    session: RequestSession | null;
  }
  interface FastifyInstance {
    issueSession(reply: FastifyReply, session: Session): Promise<string>;
  }
}

export interface SessionOptions {
  secret: string;
  /** Where revocations are kept (./revocations.ts); without it, tokens are trusted until they expire. */
  revocations?: Sql;
  /** Send the cookie only over HTTPS (on behind a TLS proxy). */
  secureCookie?: boolean;
}

/**
 * Signed sessions for both APIs: a JWT in an httpOnly cookie for the console, and the same token
 * as `Authorization: Bearer` for devices. Decorates every request with `session`.
 */
export const sessions = fp<SessionOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(cookie);
    await app.register(jwt, { secret: options.secret, sign: { expiresIn: `${SESSION_HOURS}h` } });
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization;
      const bearer = header?.startsWith('Bearer ');
      const token = bearer ? header!.slice('Bearer '.length) : request.cookies[SESSION_COOKIE];
      if (!token) return;
      // The browser sends the cookie whoever made the page: a command it carries must come from our own.
      if (!bearer && !SAFE_METHODS.has(request.method) && !fromOwnOrigin(request)) {
        throw new HttpError(403, 'request.crossSite');
      }
      let claims: SessionClaims;
      try {
        claims = SessionClaims.parse(app.jwt.verify(token));
      } catch {
        return; // an expired or forged token is the same as none
      }
      if (options.revocations && (await isRevoked(options.revocations, claims.sub, claims.iatMs))) return;
      request.session = {
        accountId: claims.sub,
        role: claims.role,
        username: claims.username,
        issuedAtMs: claims.iatMs,
      };
    });
    app.decorate('issueSession', async (reply: FastifyReply, session: Session) => {
      const token = app.jwt.sign({
        sub: session.accountId,
        role: session.role,
        username: session.username,
        iatMs: Date.now(),
      });
      reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookie ?? false,
        path: '/',
        maxAge: SESSION_HOURS * 3600,
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

/**
 * A hook that lets through only a verified session holding one of `allowed` roles. Use it as
 * preValidation (or earlier), so a stranger learns nothing from validation errors.
 */
export function requireRole(...allowed: Role[]): (request: FastifyRequest) => Promise<void> {
  return async (request: FastifyRequest) => {
    if (!request.session) throw new HttpError(401, 'auth.required');
    if (!allowed.includes(request.session.role)) throw new HttpError(403, 'auth.forbidden');
  };
}

/** Signed in at all. */
export const requireSession = requireRole(...roles);
