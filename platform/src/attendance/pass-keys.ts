import { createHmac, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import {
  type PassReading,
  formatPass,
  passMessage,
  passWindowOf,
  readPass,
} from '@portal/contracts/attendance/pass-code';

/** PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface PassKeys {
  /** The public key, raw 32 bytes in base64url: what every scanner holds to check passes alone. */
  publicKey: string;
  /** The member's pass code for the 30-second window of `now`, and when it turns. */
  issue(memberId: string, now?: number): { code: string; expiresAt: string };
  read(input: string, now?: number): PassReading;
}

const cache = new Map<string, PassKeys>();

/**
 * The Ed25519 key that signs passes, derived from PASS_SECRET, so query-api (which issues passes)
 * and command-api (which checks them) hold the same key without storing one. Changing
 * PASS_SECRET changes the key; scanners learn the new public key at their next sync.
 */
export function passKeysFor(passSecret: string): PassKeys {
  const known = cache.get(passSecret);
  if (known) return known;
  const seed = createHmac('sha256', passSecret).update('attendance-pass-ed25519').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const keys: PassKeys = {
    publicKey: Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64url'),
    issue(memberId, now = Date.now()) {
      const window = passWindowOf(now);
      const signature = sign(null, passMessage(memberId, window), privateKey);
      return {
        code: formatPass(memberId, window, signature),
        expiresAt: new Date((window + 1) * 30_000).toISOString(),
      };
    },
    read: (input, now = Date.now()) =>
      readPass(input, now, (message, signature) => verify(null, message, publicKey, signature)),
  };
  cache.set(passSecret, keys);
  return keys;
}
