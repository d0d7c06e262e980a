/**
 * When no instance of the portal answered (the network failed, or nginx said 502, 503 or 504: an
 * instance died or was stopping, a database restarted), the call is sent again, at most
 * RESEND_AFTER_MS.length more times. A command keeps the one idempotency key it was first sent
 * with, so if it did reach the log before its instance died, the server answers what it did then
 * and it counts once.
 */
export const RESEND_AFTER_MS = [250, 750, 1500];
const NOBODY_ANSWERED = new Set([502, 503, 504]);

/** A fresh idempotency key. Not crypto.randomUUID: that needs a secure context, and a LAN address over HTTP is not one. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends with `attempt` (which sends the same request, key and all, every time) until an
 * instance answers, or the last pause has passed: then the last answer or failure stands.
 */
export async function sendUntilAnswered(
  attempt: () => Promise<Response>,
  pauses: readonly number[] = RESEND_AFTER_MS,
): Promise<Response> {
  for (let tries = 0; ; tries++) {
    const last = tries === pauses.length;
    try {
      const response = await attempt();
      if (!NOBODY_ANSWERED.has(response.status) || last) return response;
    } catch (error) {
      if (last) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pauses[tries]));
  }
}
