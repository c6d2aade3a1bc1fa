// At most `perSecond` request starts in any rolling one-second window. A sliding
// window (rather than a token bucket with a burst) never exceeds the service's
// per-second limit however the service aligns its own window.

export class RateLimiter {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private resumeAt = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when the caller may start a request; callers are served in order. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.waitForSlot());
    this.queue = turn;
    return turn;
  }

  /** Holds every start until `time`: after a 429, the whole account waits out the Retry-After. */
  pauseUntil(time: number): void {
    this.resumeAt = Math.max(this.resumeAt, time);
  }

  /**
   * The service's `RateLimit-Remaining` on an answer: what its window holds beyond the
   * starts this process made is another client of the account (the program's data
   * sources, another provider host), and counts as starts made now, so that the two
   * share the budget instead of drawing 429s.
   */
  observeRemaining(remaining: number): void {
    const now = this.now();
    this.forgetStartsBefore(now);
    const others = this.perSecond - this.starts.length - remaining;
    for (let start = 0; start < others; start++) this.starts.push(now);
  }

  private forgetStartsBefore(now: number): void {
    while (this.starts.length && this.starts[0] <= now - windowMs) this.starts.shift();
  }

  private async waitForSlot(): Promise<void> {
    for (;;) {
      const now = this.now();
      if (now < this.resumeAt) {
        await sleep(this.resumeAt - now);
        continue;
      }
      if (this.perSecond <= 0) return;
      this.forgetStartsBefore(now);
      if (this.starts.length < this.perSecond) {
        this.starts.push(now);
        return;
      }
      await sleep(this.starts[0] + windowMs - now);
    }
  }
}

// A little over a second, so that the service's clock never sees six starts in one of its seconds.
const windowMs = 1020;

const limiters = new Map<string, RateLimiter>();

/**
 * The limiter of one account, shared by every resource in this process: the
 * provider module is loaded once per provider host, so this map is too.
 */
export function limiterFor(accountKey: string, perSecond: number): RateLimiter {
  const key = `${accountKey}|${perSecond}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter(perSecond);
    limiters.set(key, limiter);
  }
  return limiter;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
