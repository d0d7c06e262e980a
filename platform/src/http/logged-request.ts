import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Some addresses are themselves the secret (a private calendar feed, a set-password link's
 * token): logs show them with the secret part replaced, as nginx's access log does
 * (deploy/production/nginx.conf).
 */
export const loggableUrl = (url: string) =>
  url.replace(/^\/api\/calendar\/[^/?#]+/, '/api/calendar/[feed]').replace(/([?&]token=)[^&#]*/g, '$1[secret]');

/** A request as every service logs it: fastify's own fields, the secret part of the address left out. */
const loggedRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: loggableUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

/** The services' logger options, with requests logged as `loggedRequest` says. */
export function redactingLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { req: loggedRequest, ...options.serializers } } as FastifyServerOptions['logger'];
}
