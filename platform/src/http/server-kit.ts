import http from 'node:http';
import https from 'node:https';
import helmet from 'helmet';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalidTextPaths } from '@portal/contracts/rules/text';
import type { SqlDatabase } from '../store/sql.ts';
import { installErrorHandler } from './errors.ts';
import { redactingLogger } from './logged-request.ts';
import type { TrustProxy } from './service-config.ts';
import { type SessionLifetimes, sessions } from './session.ts';

export interface HttpServerOptions {
  title: string;
  sessionSecret: string;
  secureCookie?: boolean;
  /** The database where revoked sessions are noted (see ./revocations.ts). */
  revocations?: SqlDatabase;
  logger?: FastifyServerOptions['logger'];
  /** Which proxies may name the client (see service-config.ts); none by default. */
  trustProxy?: TrustProxy;
  /** Idle and absolute session lifetimes (see session.ts); 30 minutes and 12 hours by default. */
  sessionLifetimes?: SessionLifetimes;
  /** The clock sessions are timed by; tests pass their own. */
  sessionClock?: () => number;
  /**
   * A certificate and key (PEM): the same routes are also served over HTTPS by a second server,
   * `app.secureServer`, which the caller starts listening on its own port.
   */
  tls?: { key: string; cert: string };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The HTTPS server beside the HTTP one, when `tls` was given; closed with the app. */
    secureServer: https.Server | null;
  }
}

/**
 * How long an idle connection stays open: fastify's own default (72 s), which it sets on a server
 * it makes but not on one a serverFactory makes. Those kept node's 5 s, so a phone scanning every
 * few seconds over the local network opened a new TLS connection for nearly every scan, and a
 * client sending just as the server closed its idle connection got ECONNRESET.
 */
export const KEEP_ALIVE_MS = 72_000;

/**
 * The fastify instance every service mounts its routes on, alone or together in the embedded
 * launcher: zod validation, one error handler, signed sessions, and the OpenAPI page at /api/docs.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  let secureServer: https.Server | null = null;
  const app = Fastify({
    // One set of routes on two servers: fastify's own (HTTP) and an HTTPS one with its handler.
    ...(options.tls && {
      serverFactory: (handler: http.RequestListener) => {
        secureServer = https.createServer({ key: options.tls!.key, cert: options.tls!.cert }, handler);
        const server = http.createServer(handler);
        for (const made of [server, secureServer]) made.keepAliveTimeout = KEEP_ALIVE_MS;
        return server;
      },
    }),
    logger: redactingLogger(options.logger),
    bodyLimit: 1024 * 1024,
    // A hop count trusts that many proxies nearest to us (fastify takes it as a function of the hop).
    trustProxy:
      typeof options.trustProxy === 'number'
        ? (
            (hops: number) => (_address: string, hop: number) =>
              hop < hops
          )(options.trustProxy)
        : (options.trustProxy ?? false),
  });
  app.setValidatorCompiler(({ schema, ...route }) =>
    validatorCompiler({
      ...route,
      schema: z
        .unknown()
        .superRefine(refuseInvalidText)
        .pipe(schema as z.ZodType),
    }),
  );
  app.decorate('secureServer', secureServer);
  app.addHook('onClose', async () => {
    const server = app.secureServer;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  await app.register(securityHeaders, { https: options.secureCookie ?? false });
  await app.register(swagger, {
    openapi: {
      info: { title: options.title, version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(sessions, {
    secret: options.sessionSecret,
    secureCookie: options.secureCookie,
    revocations: options.revocations,
    lifetimes: options.sessionLifetimes,
    now: options.sessionClock,
  });
  return app;
}

/**
 * Before a route's own schema: no string anywhere in a body, query or path may hold what cannot
 * be stored as text (NUL, a lone surrogate, a control character), whichever field it is in and
 * whether or not its own rule says so (see ../rules/text.ts). Each such field gets the message.
 */
function refuseInvalidText(value: unknown, context: z.RefinementCtx) {
  for (const path of invalidTextPaths(value)) {
    context.addIssue({ code: 'custom', path, message: 'text.invalidCharacters', input: value });
  }
}

/**
 * The security headers of every answer (the console, both APIs, uploads, the docs), by helmet: a
 * Content-Security-Policy that allows scripts from the portal itself only (no inline script, no
 * eval), images from itself and data:/blob: URLs (QR codes, camera captures), no framing by any
 * page (`frame-ancestors 'none'`, X-Frame-Options DENY), nosniff, a referrer only to itself, a
 * Permissions-Policy that lets the portal itself use the camera and the phone's location (a
 * member checking themselves in, issue 23) and nothing use the microphone, and HSTS when the portal is served over HTTPS. Inline style attributes are
 * allowed: charts and the QR scanner set them, and they cannot run code.
 */
const securityHeaders = fp<{ https: boolean }>(async (app, options) => {
  // helmet's own middleware, made once: @fastify/helmet made it anew on every request (its CSP
  // directives parsed each time, 1.6% of the portal's thread on the scan benchmark).
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, next) =>
    setHeaders(request.raw, reply.raw, (error) => next(error as Error)),
  );
  app.addHook('onSend', async (_request, reply) => {
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=(self), payment=(), usb=()');
  });
});
