// Calls that arrive together in the provider host, handed over as one group. The
// engine runs a refresh's reads and a destroy's deletes in parallel, all in one host
// process (this module is loaded once per host), so a group can go out as fewer
// requests than one per object.

/** One call waiting in a group: what it asks, and how its own promise settles. */
export interface Waiting<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * How long a group stays open after the event loop has gone idle: the host's gRPC
 * calls arriving in one burst land within it, and a lone call waits no longer.
 */
const windowMs = 5;

/**
 * A function that collects calls per key until the window closes, then hands each group
 * to `answer`, which settles every call of it; a call it leaves unsettled fails with
 * the error `answer` throws.
 */
export function coalescing<Request, Result>(
  answer: (group: Array<Waiting<Request, Result>>) => Promise<void>,
): (key: string, request: Request) => Promise<Result> {
  const open = new Map<string, Array<Waiting<Request, Result>>>();
  return (key, request) =>
    new Promise<Result>((resolve, reject) => {
      let group = open.get(key);
      if (!group) {
        const closing: Array<Waiting<Request, Result>> = (group = []);
        open.set(key, closing);
        setImmediate(() =>
          setTimeout(() => {
            open.delete(key);
            // Settling a promise twice is a no-op: only calls answer left waiting take the error.
            answer(closing).catch((error: unknown) => closing.forEach((waiting) => waiting.reject(error)));
          }, windowMs),
        );
      }
      group.push({ request, resolve, reject });
    });
}
