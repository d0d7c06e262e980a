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

export const SESSION_COOKIE = 'token';
export const SESSION_HOURS = 12;

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified session, or null when the request carries none (or a bad one). */
    session: Session | null;
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
      const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : request.cookies[SESSION_COOKIE];
      if (!token) return;
      let claims: SessionClaims;
      try {
        claims = SessionClaims.parse(app.jwt.verify(token));
      } catch {
        return; // an expired or forged token is the same as none
      }
      if (options.revocations && (await isRevoked(options.revocations, claims.sub, claims.iatMs))) return;
      request.session = { accountId: claims.sub, role: claims.role, username: claims.username };
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
