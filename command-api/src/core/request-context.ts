import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { EventMetadata } from '@portal/contracts/envelope';
import { unauthenticated } from '@portal/platform/domain/errors';
import type { CommandMetadata, SignedInMetadata } from './command.ts';

const KEY_HEADER = 'idempotency-key';

/**
 * The request's Idempotency-Key, scoped to who sends it, with a fingerprint of what it asks
 * (method, route, parameters, body). Passwords are left out of the fingerprint: it is stored.
 */
export function idempotencyOf(request: FastifyRequest): { key: string; fingerprint: string } | undefined {
  const header = request.headers[KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) return undefined;
  const { password: _password, ...body } = (request.body ?? {}) as Record<string, unknown>;
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([request.method, request.routeOptions.url, request.params, body]))
    .digest('hex');
  return { key: `${request.session?.accountId ?? 'anonymous'}:${key.slice(0, 200)}`, fingerprint };
}

export function metadataOf(request: FastifyRequest): EventMetadata {
  return {
    actorId: request.session?.accountId,
    actorRole: request.session?.role,
    correlationId: request.id,
    idempotencyKey: idempotencyOf(request)?.key,
  };
}

/** A command's metadata: who asks (the verified session, when there is one) and the server's time. */
export function commandMetadataOf(request: FastifyRequest): CommandMetadata {
  const { session } = request;
  return {
    now: new Date().toISOString(),
    ...(session ? { actor: { id: session.accountId, role: session.role } } : {}),
  };
}

/** The metadata of a command only a signed-in person may send. */
export function signedInMetadataOf(request: FastifyRequest): SignedInMetadata {
  const { actor, now } = commandMetadataOf(request);
  if (!actor) throw unauthenticated('auth.required');
  return { actor, now };
}
