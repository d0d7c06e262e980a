import { createHmac, timingSafeEqual } from 'node:crypto';

/** A pass code lives about 30 seconds; the scanner accepts the current and the previous one. */
export const PASS_WINDOW_MS = 30_000;
const PREFIX = 'P1';

const windowOf = (ms: number) => Math.floor(ms / PASS_WINDOW_MS);
const mac = (secret: string, memberId: string, window: number) =>
  createHmac('sha256', secret).update(`${memberId}.${window}`).digest('base64url').slice(0, 22);

/**
 * The code a member's QR pass shows: `P1.<member id>.<window>.<HMAC>`. A screenshot of it stops
 * working within a minute, and nobody can make one without the server's secret.
 */
export function passCode(secret: string, memberId: string, now = Date.now()) {
  const window = windowOf(now);
  return {
    code: `${PREFIX}.${memberId}.${window}.${mac(secret, memberId, window)}`,
    expiresAt: new Date((window + 1) * PASS_WINDOW_MS).toISOString(),
  };
}

/** A pass code, signed by this server (`authentic`) and current (`fresh`), or plain text. */
export type PassReading =
  { kind: 'pass'; memberId: string; authentic: boolean; fresh: boolean } | { kind: 'plain'; value: string };

/**
 * Reads what a scanner received: a pass code (valid in its own window and the next, so a code
 * shown just before it turns still works) or, for anything else, the plain id or username.
 */
export function readPassCode(secret: string, input: string, now = Date.now()): PassReading {
  const parts = input.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return { kind: 'plain', value: input };
  const [, memberId, windowText, signature] = parts as [string, string, string, string];
  const window = Number(windowText);
  const current = windowOf(now);
  const fresh = Number.isSafeInteger(window) && (window === current || window === current - 1);
  const expected = Buffer.from(mac(secret, memberId, window));
  const given = Buffer.from(signature);
  const authentic = expected.length === given.length && timingSafeEqual(expected, given);
  return { kind: 'pass', memberId, authentic, fresh };
}
