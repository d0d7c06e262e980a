import type { MessageKey } from '@portal/contracts/rules/messages';

/**
 * What a refusal means, whatever the transport: the HTTP error handler (../http/errors.ts) maps
 * each kind to a status in one table, so deciders and workflows never speak HTTP.
 */
export type RefusalKind = 'unauthenticated' | 'forbidden' | 'notFound' | 'conflict' | 'tooMany';

/**
 * A refusal a person should read: its kind, a message key (translated for the caller), and any
 * extra fields of the answer (the spec's `fields`, `conflicts`, `status`, ...).
 */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    readonly messageKey: MessageKey,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(messageKey);
    this.name = 'DomainError';
  }
}

export const unauthenticated = (key: MessageKey, extra?: Record<string, unknown>) =>
  new DomainError('unauthenticated', key, extra);
export const forbidden = (key: MessageKey, extra?: Record<string, unknown>) => new DomainError('forbidden', key, extra);
export const notFound = (key: MessageKey, extra?: Record<string, unknown>) => new DomainError('notFound', key, extra);
export const conflict = (key: MessageKey, extra?: Record<string, unknown>) => new DomainError('conflict', key, extra);
export const tooMany = (key: MessageKey, extra?: Record<string, unknown>) => new DomainError('tooMany', key, extra);
