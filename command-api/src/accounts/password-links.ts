import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A link to set one's password works for a week, and once. */
export const PASSWORD_LINK_MS = 7 * 24 * 3_600_000;

const keyOf = (secret: string) => createHmac('sha256', secret).update('password-links').digest();

/**
 * What a link is bound to besides the account: its password hash when the link was made. Setting
 * the password changes the hash, so the link works once; a later link supersedes nothing else.
 */
export const passwordState = (hash: string | undefined) =>
  createHash('sha256')
    .update(hash ?? '')
    .digest('base64url')
    .slice(0, 16);

const sign = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

/**
 * The token of a set-password link: the account, when it expires and the state it is bound to,
 * signed with the server's secret (a key of its own derived from it). Nothing is stored: the
 * server recognises its own signature.
 */
export function passwordLinkToken(
  secret: string,
  link: { accountId: string; state: string; expiresAt: number },
): string {
  const payload = `${link.accountId}.${link.expiresAt}.${link.state}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The account and state a token names, when the server signed it and it has not expired; otherwise null. */
export function readPasswordLinkToken(
  secret: string,
  token: string,
  now: number,
): { accountId: string; state: string } | null {
  const match = /^([0-9a-f]{24})\.(\d{13})\.([\w-]{16})\.([\w-]{43})$/.exec(token);
  if (!match) return null;
  const [, accountId, expiresAt, state, mac] = match as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, `${accountId}.${expiresAt}.${state}`));
  if (!timingSafeEqual(expected, Buffer.from(mac))) return null;
  if (Number(expiresAt) <= now) return null;
  return { accountId, state };
}
