import type { FastifyRequest } from 'fastify';
import type { Language } from '@portal/contracts/rules/messages';

/**
 * The language of the answer: the console sends its `lang` choice as Accept-Language.
 * Without one, Thai, the language of the spec's own answers.
 */
export function languageOf(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  if (!header) return 'th';
  return header.trim().toLowerCase().startsWith('en') ? 'en' : 'th';
}
