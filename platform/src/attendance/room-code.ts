import { createHmac, timingSafeEqual } from 'node:crypto';

/** A room code lives 15 s on the screen; the one before is still taken for 10 s after it is replaced. */
export const ROOM_CODE_MS = 15_000;
export const ROOM_CODE_GRACE_MS = 10_000;

const codeOf = (secret: string, roundId: string, slot: number) =>
  createHmac('sha256', secret).update(`room-code\0${roundId}\0${slot}`).digest('base64url').slice(0, 16);

/**
 * The rotating room code of a round (issue 23), as a projector shows it for members to check
 * themselves in: made from the pass secret, the round and the 15-second slot, so no database
 * holds it and every instance of both services agrees. A code is taken while its slot lasts and
 * for ROOM_CODE_GRACE_MS after (a phone that read it just before it changed), so a photo of the
 * screen sent to someone elsewhere stops working within 25 seconds.
 */
export function roomCodeAt(secret: string, roundId: string, now: number): { code: string; expiresAt: number } {
  const slot = Math.floor(now / ROOM_CODE_MS);
  return { code: codeOf(secret, roundId, slot), expiresAt: (slot + 1) * ROOM_CODE_MS };
}

/** Whether `code` is the round's code now, or the one before it within the grace. */
export function roomCodeTaken(secret: string, roundId: string, code: string, now: number): boolean {
  const slot = Math.floor(now / ROOM_CODE_MS);
  const candidates = [slot];
  if (now - slot * ROOM_CODE_MS < ROOM_CODE_GRACE_MS) candidates.push(slot - 1);
  const given = Buffer.from(code);
  return candidates.some((candidate) => {
    const expected = Buffer.from(codeOf(secret, roundId, candidate));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
