// At most `perSecond` requests in any rolling one-second window of the service. The
// service counts a request when it arrives, which is some time after this process
// starts it (a first request loads the HTTP client and opens a connection; a busy
// event loop delays a send) and before its answer comes back. So a request holds its
// place in the window from its start until one second after its answer: however late
// it arrived, the service's window has let it go by then. A sliding window (rather than
// a token bucket with a burst) never exceeds the limit however the service aligns its
// own window.

/**
 * Ends a granted request's hold on the window: call it when its answer came, or the attempt
 * failed. `reached` false: the request never reached the service (a refused connection, an
 * address that does not resolve, a turn given back unsent), which counted nothing, so its
 * place frees at once.
 */
export type Answered = (reached?: boolean) => void;

const windowMs = 1000;

export class RateLimiter {
  /** When each place in the window frees: Infinity while its request awaits its answer. */
  private readonly held: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private resumeAt = 0;
  /** Wakes the caller waiting for a place when a held one changes. */
  private placeFreed?: () => void;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when the caller may start a request; callers are served in order. */
  acquire(): Promise<Answered> {
    const turn = this.queue.then(() => this.waitForPlace());
    this.queue = turn.then(() => undefined);
    return turn;
  }

  /** Holds every start until `time`: after a 429, the whole account waits out the Retry-After. */
  pauseUntil(time: number): void {
    this.resumeAt = Math.max(this.resumeAt, time);
  }

  /**
   * The service's `RateLimit-Remaining` on an answer: what its window holds beyond this
   * process's requests is another client of the account (the program's data sources,
   * another provider host), and holds places for a second from now, so that the two
   * share the budget instead of drawing 429s.
   */
  observeRemaining(remaining: number): void {
    const now = this.now();
    this.freePlacesBefore(now);
    const others = this.perSecond - this.held.length - remaining;
    for (let place = 0; place < others; place++) this.held.push(now + windowMs);
  }

  private freePlacesBefore(now: number): void {
    for (let index = this.held.length - 1; index >= 0; index--) if (this.held[index] <= now) this.held.splice(index, 1);
  }

  private async waitForPlace(): Promise<Answered> {
    for (;;) {
      const now = this.now();
      if (now < this.resumeAt) {
        await sleep(this.resumeAt - now);
        continue;
      }
      if (this.perSecond <= 0) return () => undefined;
      this.freePlacesBefore(now);
      if (this.held.length < this.perSecond) return this.hold();
      // Woken when the next held place frees by time, or one is given back first.
      const nextFree = Math.min(...this.held);
      await new Promise<void>((resolve) => {
        const timer = nextFree === Infinity ? undefined : setTimeout(resolve, nextFree - now);
        this.placeFreed = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private hold(): Answered {
    this.held.push(Infinity);
    let answered = false;
    return (reached = true) => {
      if (answered) return;
      answered = true;
      // Places awaiting an answer are alike: any one of them frees a second from now.
      const place = this.held.indexOf(Infinity);
      if (reached) this.held[place] = this.now() + windowMs;
      else this.held.splice(place, 1);
      const wake = this.placeFreed;
      this.placeFreed = undefined;
      wake?.();
    };
  }
}

const limiters = new Map<string, RateLimiter>();

/**
 * The limiter of one account at one service (the CRM and chat services limit an
 * account separately), shared by every resource in this process: the provider
 * module is loaded once per provider host, so this map is too.
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
