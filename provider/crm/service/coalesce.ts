// Calls that arrive together in the provider host, handed over as one group. The
// engine runs a deployment's creates, updates and deletes and a refresh's reads in
// parallel, all in one host process (this module is loaded once per host), so a group
// can go out as fewer requests than one per object.

/** One call waiting in a group: what it asks, and how its own promise settles. */
export interface Waiting<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * When a group closes: once no call of it has arrived for `quietMs`, and at the latest
 * `maxOpenMs` after its first call. A lone call waits `quietMs` only.
 */
export interface GroupWindow {
  quietMs: number;
  maxOpenMs: number;
  /**
   * Also, once a group of its key has closed, as soon as it holds as many calls as were
   * ever unsettled at once for its key: the CLI's parallelism as seen. Calls the CLI
   * sends a batch at a time then go out once the batch is complete, so that `quietMs`
   * can wait out a slow CLI without delaying every batch.
   */
  closeWhenFull?: boolean;
}

/**
 * The engine hands calls over one by one as it finishes each resource's check, so a
 * burst trickles in over a few milliseconds.
 */
const burstWindow: GroupWindow = { quietMs: 5, maxOpenMs: 50 };

interface OpenGroup<Request, Result> {
  calls: Array<Waiting<Request, Result>>;
  openedAt: number;
  timer?: NodeJS.Timeout;
}

/**
 * A function that collects calls per key until the group closes (`window`), then hands
 * each group to `answer`, which settles every call of it; a call it leaves unsettled
 * fails with the error `answer` throws.
 */
export function coalescing<Request, Result>(
  answer: (group: Array<Waiting<Request, Result>>) => Promise<void>,
  window: GroupWindow = burstWindow,
): (key: string, request: Request) => Promise<Result> {
  const open = new Map<string, OpenGroup<Request, Result>>();
  /** Per key: calls not yet settled, the most there were at once, and whether a group has closed. */
  const seen = new Map<string, { unsettled: number; most: number; closed: boolean }>();
  const close = (key: string, group: OpenGroup<Request, Result>) => {
    clearTimeout(group.timer);
    open.delete(key);
    seen.get(key)!.closed = true;
    // Settling a promise twice is a no-op: only calls answer left waiting take the error.
    answer(group.calls).catch((error: unknown) => {
      for (const waiting of group.calls) waiting.reject(error);
    });
  };
  return (key, request) =>
    new Promise<Result>((resolve, reject) => {
      let counts = seen.get(key);
      if (!counts) seen.set(key, (counts = { unsettled: 0, most: 0, closed: false }));
      counts.most = Math.max(counts.most, ++counts.unsettled);
      let settled = false;
      const settling =
        <Value>(settle: (value: Value) => void) =>
        (value: Value) => {
          if (!settled) counts.unsettled--;
          settled = true;
          settle(value);
        };
      let group = open.get(key);
      if (!group) open.set(key, (group = { calls: [], openedAt: Date.now() }));
      group.calls.push({ request, resolve: settling(resolve), reject: settling(reject) });
      if (window.closeWhenFull && counts.closed && group.calls.length >= counts.most) {
        close(key, group);
        return;
      }
      clearTimeout(group.timer);
      const closing = group;
      group.timer = setTimeout(() => close(key, closing), Math.min(window.quietMs, Math.max(0, group.openedAt + window.maxOpenMs - Date.now())));
    });
}

/** The steps of answerInBulk for one kind of write. */
export interface BulkSteps<Request, Result> {
  /** Sends one bulk request; false when the service refused it, which by its rule wrote nothing. */
  sendBulk(requests: Request[]): Promise<boolean>;
  /** Settles what it can of the calls a sent bulk held; returns the calls left to `single`. */
  afterBulk(sent: Array<Waiting<Request, Result>>): Promise<Array<Waiting<Request, Result>>>;
  /** The call on its own, as it goes out when it arrives alone. */
  single(request: Request): Promise<Result>;
}

/**
 * Answers a group through bulk requests of at most `maxItems` calls. A lone call, and
 * every call of a bulk the service refused, goes out on its own, so that each failure
 * lands on its own resource with its own message.
 */
export async function answerInBulk<Request, Result>(
  group: Array<Waiting<Request, Result>>,
  maxItems: number,
  steps: BulkSteps<Request, Result>,
): Promise<void> {
  for (let start = 0; start < group.length; start += maxItems) {
    const chunk = group.slice(start, start + maxItems);
    const alone = chunk.length > 1 && (await steps.sendBulk(chunk.map((waiting) => waiting.request))) ? await steps.afterBulk(chunk) : chunk;
    await Promise.all(alone.map((waiting) => steps.single(waiting.request).then(waiting.resolve, waiting.reject)));
  }
}
