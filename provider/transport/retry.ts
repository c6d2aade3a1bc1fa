// Which outcomes are retried, and after how long. Separate from sending and from
// rate limiting so each piece can be read and tested on its own.

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No attempt starts later than this after the first one. */
  deadlineMs: number;
  /** How long an address that refused the connection or did not resolve is not tried again (see isUnreachableAddress). */
  unreachableForMs: number;
  /** Jitter source; tests pass a fixed one. */
  random: () => number;
}

export const defaultRetryPolicy: RetryPolicy = {
  // Under a fault rate of 40% (the fault soak's profile, test/reliability/fault-soak.test.ts)
  // 6 attempts gave up on 1 request in 250; 10 give up on 1 in 10,000, within the deadline.
  maxAttempts: 10,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  deadlineMs: 90_000,
  // A run against an address that is down ends in seconds, all in one such span; a service
  // started again during a longer run is tried again at most this late, at the cost of one
  // brief retry (under a second) per span while it is still down.
  unreachableForMs: 10_000,
  random: Math.random,
};

/** What one attempt produced: a response, or a network failure before one arrived. */
export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfterSeconds?: number }
  | { kind: "network"; code: string; mayHaveReachedService: boolean };

export type RetryDecision =
  /** Not retryable: hand the outcome to the caller. */
  | { action: "stop" }
  /** Safe to send again after the delay. */
  | { action: "retry"; delayMs: number }
  /** The request may have taken effect: look for its result before sending again. */
  | { action: "recover-then-retry"; delayMs: number };

/**
 * Failures of the service that a later attempt may not meet. Any of them may come after the
 * work was done (REAL-WORLD.md: their bodies are sometimes HTML or empty), so only a request
 * that is safe to repeat is sent again as it is; a create is first looked for (see
 * mayHaveTakenEffect and CallOptions.recover).
 */
const retriedStatuses = new Set([500, 502, 503, 504]);

/**
 * Network failures that no retry mends, because the address or the service's certificate is
 * wrong: the name does not exist (ENOTFOUND: the resolver answered that it has no such host),
 * a certificate refused (expired, self-signed, for another host), TLS spoken to a plain port.
 */
export function isPermanentNetworkFailure(code: string): boolean {
  return code === "ENOTFOUND" || /CERT|^UNABLE_TO_|^ERR_TLS_|^ERR_SSL_/.test(code);
}

/**
 * Nothing listens at the address (ECONNREFUSED), or the resolver did not answer (EAI_AGAIN,
 * offline or a DNS hiccup). Most often the address is wrong and retrying only delays the
 * error, but a service restarting behind its address or a passing DNS failure are over
 * within a second: so a short retry, 3 attempts in all (under a second with the default
 * backoff), instead of the 10 over about 40 seconds of other failures. Neither reached the
 * service, so resending any request is safe.
 */
const briefRetryCodes = new Set(["ECONNREFUSED", "EAI_AGAIN"]);
export const briefRetryAttempts = 3;

/**
 * Failures of the address itself, after the brief retry: the next request to it fails alike,
 * so other requests of this process to the account fail at once for a while
 * (RetryPolicy.unreachableForMs), with no request and no wait at the rate limit.
 */
export function isUnreachableAddress(code: string): boolean {
  return briefRetryCodes.has(code) || isPermanentNetworkFailure(code);
}

export function decideRetry(outcome: AttemptOutcome, attempt: number, elapsedMs: number, idempotent: boolean, policy: RetryPolicy): RetryDecision {
  const maxAttempts = outcome.kind === "network" && briefRetryCodes.has(outcome.code) ? Math.min(briefRetryAttempts, policy.maxAttempts) : policy.maxAttempts;
  if (attempt >= maxAttempts || !isRetryable(outcome)) return { action: "stop" };
  const delayMs = outcome.kind === "response" && outcome.retryAfterSeconds !== undefined ? outcome.retryAfterSeconds * 1000 : backoffDelay(attempt, policy);
  if (elapsedMs + delayMs > policy.deadlineMs) return { action: "stop" };
  return mayHaveTakenEffect(outcome) && !idempotent ? { action: "recover-then-retry", delayMs } : { action: "retry", delayMs };
}

function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.kind === "network") return !isPermanentNetworkFailure(outcome.code);
  return outcome.status === 429 || retriedStatuses.has(outcome.status);
}

/** A 429 is refused before any work; a 5xx or a lost connection may come after the work was done. */
export function mayHaveTakenEffect(outcome: AttemptOutcome): boolean {
  return outcome.kind === "network" ? outcome.mayHaveReachedService : outcome.status >= 500;
}

/** Capped exponential backoff with full jitter, so retrying clients spread out. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

/** Retry-After in whole seconds (the service's form) or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\d+$/.test(text.trim())) return Number(text.trim());
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
