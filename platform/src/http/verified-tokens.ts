import { LRUCache } from 'lru-cache';

/** Tokens remembered at most, the least recently used forgotten first. */
const REMEMBERED_TOKENS = 10_000;

/**
 * `verify` (a JWT's signature and expiry) once per token: the token's text, exactly, is then known
 * with what it said until its `exp`. An HMAC a request was 4% of a scan's work on the main
 * thread. fast-jwt's own cache keys a token by a SHA-256 of it, which costs what the HMAC does,
 * and warns at every start when given another key. A token that fails is never remembered.
 */
export function verifiedTokens(verify: (token: string) => unknown, now: () => number = Date.now) {
  const known = new LRUCache<string, { payload: unknown }>({ max: REMEMBERED_TOKENS, perf: { now }, ttlResolution: 0 });
  return (token: string): unknown => {
    const remembered = known.get(token);
    if (remembered) return remembered.payload;
    const payload = verify(token);
    const exp = (payload as { exp?: unknown } | null)?.exp;
    const ttl = typeof exp === 'number' ? exp * 1000 - now() : 0;
    if (ttl > 0) known.set(token, { payload }, { ttl });
    return payload;
  };
}
