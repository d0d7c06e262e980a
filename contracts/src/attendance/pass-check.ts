import { ed25519 } from '@noble/curves/ed25519.js';
import { type PassReading, fromBase64Url, readPass } from './pass-code.ts';

/**
 * A scanner's own check of a pass, with the server's public key and no connection (issue 18):
 * pure JavaScript (noble), so it runs on a phone at the LAN address whatever its browser's
 * WebCrypto offers. Returns null for a key that is not one.
 */
export function passChecker(publicKey: string): ((input: string, now: number) => PassReading) | null {
  const key = fromBase64Url(publicKey);
  if (key?.length !== 32) return null;
  return (input, now) => readPass(input, now, (message, signature) => ed25519.verify(signature, message, key));
}
