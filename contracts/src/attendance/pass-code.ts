/**
 * The attendance pass a member shows (issue 18): `P2.<member id>.<window>.<Ed25519 signature>`.
 * The server signs it with a key only it holds; every scanner holds the public key, so a phone
 * with no connection can tell a pass the server made from a forged one, and a current pass from
 * a screenshot of an old one. This module is the format and the check, safe in the browser; the
 * signing key lives in pass-keys.ts (Node).
 */

/** A pass code lives about 30 seconds; the scanner accepts the current and the previous one. */
export const PASS_WINDOW_MS = 30_000;
const PREFIX = 'P2';
const SIGNATURE_BYTES = 64;

export const passWindowOf = (ms: number) => Math.floor(ms / PASS_WINDOW_MS);

/** The bytes the server signs: the code without its signature. */
export const passMessage = (memberId: string, window: number) =>
  new TextEncoder().encode(`${PREFIX}.${memberId}.${window}`);

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url text, or null when it is not one (or not spelled canonically). */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  // Only the one canonical spelling: a last character differing in unused bits is not the same pass.
  return toBase64Url(bytes) === text ? bytes : null;
}

export const formatPass = (memberId: string, window: number, signature: Uint8Array) =>
  `${PREFIX}.${memberId}.${window}.${toBase64Url(signature)}`;

/** What the profile QR card holds: `{origin}/api/members/profile/{id}`, not a pass. */
const PROFILE_LINK = /^https?:\/\/[^/\s]+\/api\/members\/profile\/([0-9a-f]{24})\/?$/;

/** The member a profile QR card names, or null when the text is not one. */
export const profileLinkMember = (text: string) => PROFILE_LINK.exec(text)?.[1] ?? null;

/** Checks a signature of `message` with the server's public key (Node's crypto, or noble in the browser). */
export type VerifySignature = (message: Uint8Array, signature: Uint8Array) => boolean;

/** A pass code, signed by the server (`authentic`) and current (`fresh`), or plain text. */
export type PassReading =
  { kind: 'pass'; memberId: string; authentic: boolean; fresh: boolean } | { kind: 'plain'; value: string };

/**
 * Reads what a scanner received at `now` (the server's clock, or a device's corrected by its
 * measured offset): a pass code, valid in its own window and the next, so a code shown just
 * before it turns still works; anything else is plain text (a member id or username).
 */
export function readPass(input: string, now: number, verify: VerifySignature): PassReading {
  const parts = input.split('.');
  if (parts.length !== 4 || parts[0] !== PREFIX) return { kind: 'plain', value: input };
  const [, memberId, windowText, signatureText] = parts as [string, string, string, string];
  const window = /^\d{1,15}$/.test(windowText) ? Number(windowText) : NaN;
  const current = passWindowOf(now);
  const fresh = window === current || window === current - 1;
  const signature = fromBase64Url(signatureText);
  let authentic = false;
  if (signature?.length === SIGNATURE_BYTES && Number.isSafeInteger(window)) {
    try {
      authentic = verify(passMessage(memberId, window), signature);
    } catch {
      authentic = false;
    }
  }
  return { kind: 'pass', memberId, authentic, fresh };
}
