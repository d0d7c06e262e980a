/**
 * Slows down password guessing: failed sign-ins are counted per account and per client address
 * in a sliding window; past the limit, sign-in is refused until the oldest failure leaves the
 * window. A successful sign-in clears the account's count. Kept in memory: one command-api
 * process holds the counts (several instances would each count their own share).
 */
export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perAccount: 5, perAddress: 20, windowMs: 15 * 60_000 };

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: ThrottleLimits = DEFAULT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `username` from `address` may try again, or 0 when it may now. */
  retryAfter(username: string, address: string): number {
    const waits = [
      this.wait(`account:${username.toLowerCase()}`, this.limits.perAccount),
      this.wait(`address:${address}`, this.limits.perAddress),
    ];
    return Math.ceil(Math.max(...waits) / 1000);
  }

  failed(username: string, address: string): void {
    for (const key of [`account:${username.toLowerCase()}`, `address:${address}`]) {
      this.failures.set(key, [...this.recent(key), this.now()]);
    }
  }

  succeeded(username: string): void {
    this.failures.delete(`account:${username.toLowerCase()}`);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limits.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  private wait(key: string, limit: number): number {
    const recent = this.recent(key);
    if (recent.length < limit) return 0;
    return recent[recent.length - limit]! + this.limits.windowMs - this.now();
  }
}
