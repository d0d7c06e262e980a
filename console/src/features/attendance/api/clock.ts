import { api } from '../../../lib/api-client.ts';

const KEY = 'scanner.clockOffset';

/**
 * How far this device's clock is from the server's, measured at each sync (issue 18): the
 * server's time against the middle of the round trip. Kept, so a scanner that opens with no
 * connection still judges passes and lateness by the server's clock.
 */
export async function measureClockOffset(): Promise<number> {
  const sent = Date.now();
  const { serverTime } = await api<{ serverTime: string }>('/api/clock');
  const received = Date.now();
  const offset = Math.round(Date.parse(serverTime) - (sent + received) / 2);
  localStorage.setItem(KEY, String(offset));
  return offset;
}

/** Now, by the server's clock as last measured (the device's own when never measured). */
export function serverNow(): number {
  const offset = Number(localStorage.getItem(KEY) ?? 0);
  return Date.now() + (Number.isFinite(offset) ? offset : 0);
}
