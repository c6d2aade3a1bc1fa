/**
 * Sliding one-second window per account: at most `perSecond` admitted requests in any
 * 1000 ms span. Rejected requests are not recorded, so a client that backs off recovers.
 */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private perSecond: number) {}

  /** 0 when the request is admitted, otherwise the whole seconds to wait (Retry-After). */
  admit(account: string, now = Date.now()): number {
    if (this.perSecond <= 0) return 0;
    let stamps = this.windows.get(account);
    if (!stamps) {
      stamps = [];
      this.windows.set(account, stamps);
    }
    while (stamps.length > 0 && stamps[0] <= now - 1000) stamps.shift();
    if (stamps.length < this.perSecond) {
      stamps.push(now);
      return 0;
    }
    return Math.max(1, Math.ceil((stamps[0] + 1000 - now) / 1000));
  }

  /** The `RateLimit-Limit` and `RateLimit-Remaining` headers the real service sends since about 2026 (REAL-WORLD.md); none when the limit is off. */
  headers(account: string, now = Date.now()): Record<string, string> {
    if (this.perSecond <= 0) return {};
    const admitted = (this.windows.get(account) ?? []).filter((stamp) => stamp > now - 1000).length;
    return { "RateLimit-Limit": String(this.perSecond), "RateLimit-Remaining": String(Math.max(0, this.perSecond - admitted)) };
  }

  reset(): void {
    this.windows.clear();
  }
}
