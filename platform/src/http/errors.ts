import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { IdempotencyKeyReused, WrongExpectedRevision } from '../store/port.ts';
import { isDatabaseUnavailable } from '../store/sql.ts';
import { type MessageKey, translate } from '@portal/contracts/rules/messages';
import { DomainError, type RefusalKind } from '../domain/errors.ts';
import { languageOf } from './language.ts';

/**
 * An answer about the request itself rather than the domain (a file too large, of the wrong type):
 * a status, a message key (translated for the user), and any extra fields of the answer. Refusals
 * of the domain are DomainErrors (../domain/errors.ts).
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messageKey: MessageKey,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(messageKey);
    this.name = 'HttpError';
  }
}

/** The one place a domain refusal becomes an HTTP status. */
const STATUS_OF: Record<RefusalKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooMany: 429,
};

/**
 * The one error handler of both APIs. Validation errors answer 400 with `errors`, one translated
 * message per field; other 4xx keep their message; 5xx are logged and hidden.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = languageOf(request);
    const send = (statusCode: number, messageKey: MessageKey | string, extra: Record<string, unknown> = {}) =>
      reply.code(statusCode).send({ success: false, message: translate(messageKey, language), ...extra });

    if (error instanceof DomainError) return send(STATUS_OF[error.kind], error.messageKey, error.extra);
    if (error instanceof HttpError) return send(error.statusCode, error.messageKey, error.extra);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        errors[field] ??= translate(issue.message ?? 'value.invalid', language);
      }
      const first = Object.values(errors)[0];
      return send(400, first ?? 'request.invalid', { errors });
    }
    if (error instanceof IdempotencyKeyReused) return send(422, 'request.idempotencyReused');
    if (error instanceof WrongExpectedRevision) return send(409, 'request.conflict');
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return send(400, 'request.malformed');
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode < 500) return send(statusCode, error.message);
    // A database restarting or failing over: nothing was done, and the same call can be sent again.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '1');
      return send(503, 'server.unavailable');
    }
    request.log.error({ err: error }, 'request failed');
    return send(500, 'server.error');
  });

  app.setNotFoundHandler((request, reply) => {
    const message = translate('route.notFound', languageOf(request));
    reply.code(404).send({ success: false, message: `${message} (${request.method} ${request.url.split('?')[0]})` });
  });
}
