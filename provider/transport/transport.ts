// The request pipeline shared by both services: rate limit -> send -> decide retry.
// Resource code sees one call that either returns a 2xx response or throws a
// ServiceError naming the resource; it never sees the credential.

import type { Agent } from "undici";
import { asPulumiCrmError, type CallContext, describeFailure, type FailureDetail, parseFailureBody, ServiceError, unsentFailure } from "./errors";
import { type Answered, limiterFor, type RateLimiter, sleep } from "./limiter";
import {
  type AttemptOutcome,
  decideRetry,
  defaultRetryPolicy,
  isPermanentNetworkFailure,
  isUnreachableAddress,
  mayHaveTakenEffect,
  parseRetryAfter,
  type RetryPolicy,
} from "./retry";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface HttpRequest {
  method: HttpMethod;
  /** Below the service root, e.g. "/accounts/12". */
  path: string;
  query?: Record<string, string | number | Array<string | number> | undefined>;
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  body: unknown;
}

export interface CallOptions extends CallContext {
  /**
   * For a create: finds what the request was creating, after an attempt that may
   * have reached the service. Returning a response ends the call with it; returning
   * undefined lets the request be sent again. Without it such a request is not resent.
   */
  recover?: () => Promise<HttpResponse | undefined>;
  /** Non-2xx statuses returned instead of thrown, e.g. 404 for a read or delete. */
  accept?: number[];
  /** A place at the rate limit taken already (see Transport.turn): the first attempt goes out on it. */
  turn?: Answered;
}

export interface AccountEndpoint {
  /** Service root, e.g. https://acme.api-us1.com/api/3. */
  rootUrl: string;
  /** The setting the address comes from, e.g. `crm:apiUrl`, named when the address cannot be reached. */
  urlSetting: string;
  headers: Record<string, string>;
  /** The credential, so that it can be kept out of every message. */
  secret: string;
  /** Identifies the account at this service for the shared limiter, without holding the credential. */
  accountKey: string;
  requestsPerSecond: number;
  timeoutMs: number;
  retry?: RetryPolicy;
  /** An answer of another status that says the object asked for is missing: taken as the 404 it means. */
  meansNotFound?(status: number, body: unknown): boolean;
}

// One keep-alive connection pool for the whole provider process.
let agent: Agent | undefined;

/**
 * undici and its pool, loaded at the first request: a preview and a no-op up send
 * none, and the provider host holds a few MiB less for them.
 */
function http(): { agent: Agent; request: typeof import("undici").request } {
  const undici = require("undici") as typeof import("undici");
  agent ??= new undici.Agent({ keepAliveTimeout: 10_000, connections: 16 });
  return { agent, request: undici.request };
}

const idempotentMethods = new Set<HttpMethod>(["GET", "PUT", "DELETE"]);

/**
 * Accounts whose address refused the connection or did not resolve, by account key: how it
 * failed (unreachableReason), when, and until when no request goes to it. A drift check of 132
 * resources against a stopped service spent 89 s giving each read its brief retry at the rate
 * limit; now the first call to give up fails the others of this process at once.
 */
const unreachable = new Map<string, { reason: string; at: number; until: number }>();

export class Transport {
  constructor(private readonly endpoint: AccountEndpoint) {}

  /**
   * Waits for this account's turn at the rate limit and holds its place, for a caller
   * that gathers work while it waits and sends what it has then (`{ turn }`). A turn
   * not sent on must be given back by calling it with `false`.
   */
  turn(): Promise<Answered> {
    return limiterFor(this.endpoint.accountKey, this.endpoint.requestsPerSecond).acquire();
  }

  async call(req: HttpRequest, options: CallOptions): Promise<HttpResponse> {
    try {
      return await this.callWithRetries(req, options);
    } catch (error) {
      throw this.redacted(error);
    }
  }

  private async callWithRetries(req: HttpRequest, options: CallOptions): Promise<HttpResponse> {
    const policy = this.endpoint.retry ?? defaultRetryPolicy;
    const limiter = limiterFor(this.endpoint.accountKey, this.endpoint.requestsPerSecond);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const answered = (attempt === 1 && options.turn) || (await this.placeAtLimit(limiter, options));
      // Found unreachable while this call waited for its place.
      const unsent = this.unreachableFailure(options);
      if (unsent) {
        answered(false);
        throw unsent;
      }
      const result = await this.send(req);
      const outcome = result.outcome;
      answered(outcome.kind === "response" || outcome.mayHaveReachedService);
      if (outcome.kind === "response") unreachable.delete(this.endpoint.accountKey);
      if (outcome.kind === "response" && outcome.status === 429 && outcome.retryAfterSeconds !== undefined) {
        limiter.pauseUntil(Date.now() + outcome.retryAfterSeconds * 1000);
      }
      if (result.rateLimitRemaining !== undefined) limiter.observeRemaining(result.rateLimitRemaining);
      const idempotent = idempotentMethods.has(req.method);
      const decision = decideRetry(outcome, attempt, Date.now() - started, idempotent, policy);
      if (decision.action === "retry") {
        await sleep(decision.delayMs);
        continue;
      }
      // A create that may have taken effect is looked for before it is sent again or given up.
      if (!idempotent && options.recover && mayHaveTakenEffect(outcome)) {
        if (decision.action === "recover-then-retry") await sleep(decision.delayMs);
        const recovered = await options.recover();
        if (recovered) return recovered;
        if (decision.action === "recover-then-retry") continue;
      }
      if (outcome.kind === "network" && isUnreachableAddress(outcome.code)) {
        const now = Date.now();
        unreachable.set(this.endpoint.accountKey, { reason: unreachableReason(outcome.code, this.endpoint), at: now, until: now + policy.unreachableForMs });
      }
      return this.finish(result, options, !idempotent && mayHaveTakenEffect(outcome));
    }
  }

  /** A place at the account's rate limit, unless its address is known to be unreachable: then no wait. */
  private placeAtLimit(limiter: RateLimiter, options: CallOptions): Promise<Answered> {
    const unsent = this.unreachableFailure(options);
    return unsent ? Promise.reject(unsent) : limiter.acquire();
  }

  /** The failure of a request not sent, as its account's address failed a moment before (see `unreachable`). */
  private unreachableFailure(options: CallOptions): ServiceError | undefined {
    const known = unreachable.get(this.endpoint.accountKey);
    if (!known) return undefined;
    const now = Date.now();
    if (now >= known.until) {
      unreachable.delete(this.endpoint.accountKey);
      return undefined;
    }
    const ago = now - known.at;
    return unsentFailure(options, `${known.reason} ${ago < 1000 ? `${ago} ms` : `${(ago / 1000).toFixed(1)} s`} before`);
  }

  /** The response, or the failure; `unconfirmed` when a create failed in a way that may have taken effect. */
  private finish(result: SendResult, options: CallOptions, unconfirmed: boolean): HttpResponse {
    if (result.response) {
      const { status, body } = result.response;
      if ((status >= 200 && status < 300) || options.accept?.includes(status)) return result.response;
      throw describeFailure(options, parseFailureBody(status, body), unconfirmed);
    }
    throw describeFailure(options, result.failure ?? {}, unconfirmed);
  }

  private async send(req: HttpRequest): Promise<SendResult> {
    const url = this.endpoint.rootUrl + req.path + queryString(req.query);
    const headers: Record<string, string> = { accept: "application/json", ...this.endpoint.headers };
    if (req.body !== undefined) headers["content-type"] = "application/json";
    try {
      const { agent, request } = http();
      const res = await request(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        dispatcher: agent,
        signal: AbortSignal.timeout(this.endpoint.timeoutMs),
      });
      const body = parseBody(await res.body.text());
      const response = { status: this.endpoint.meansNotFound?.(res.statusCode, body) ? 404 : res.statusCode, body };
      return {
        response,
        outcome: { kind: "response", status: res.statusCode, retryAfterSeconds: parseRetryAfter(res.headers["retry-after"]) },
        rateLimitRemaining: wholeNumberHeader(res.headers["ratelimit-remaining"]),
      };
    } catch (error) {
      const code = networkErrorCode(error);
      // Refused connections and DNS failures never reached the service; anything else might have.
      const mayHaveReachedService = !["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(code);
      return {
        outcome: { kind: "network", code, mayHaveReachedService },
        failure: { detail: networkFailureDetail(code, new URL(this.endpoint.rootUrl), this.endpoint) },
      };
    }
  }

  /** Whatever went wrong, the credential never leaves in a message. */
  private redacted(error: unknown): Error {
    const err = error instanceof Error ? error : new Error(String(error));
    const clean = (text: string) => withoutSecret(text, this.endpoint.secret);
    const message = clean(err.message);
    if (!(err instanceof ServiceError)) return asPulumiCrmError(message === err.message ? err : message);
    // The service's own words (`detail`) may echo the request's headers too.
    const detail = err.detail === undefined ? undefined : clean(err.detail);
    return message === err.message && detail === err.detail ? err : new ServiceError(message, { status: err.status, code: err.code, field: err.field, detail });
  }
}

/**
 * A secret of this length or more is redacted wherever it appears: text holds such a
 * string by chance too rarely to matter, and it may be glued to other text (`Token%20<key>`).
 * A shorter one occurs inside words, names and addresses (`x` in `nonexistent`, `1` in
 * `Acme 1` or `127.0.0.1`), which redacting every occurrence mangled: it is redacted only as
 * the value of a credential, after `Api-Token:`, `Token`, `Authorization:` or `key`.
 */
const secretRedactedEverywhereFrom = 8;

function withoutSecret(text: string, secret: string): string {
  if (!secret) return text;
  if (secret.length >= secretRedactedEverywhereFrom) return text.split(secret).join("[redacted]");
  const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return text.replace(new RegExp(`(?<=(?:token|authorization|key)[\\s:="']{1,3})${escaped}(?![\\p{L}\\p{N}_-])`, "giu"), "[redacted]");
}

interface SendResult {
  outcome: AttemptOutcome;
  response?: HttpResponse;
  failure?: FailureDetail;
  /** The service's `RateLimit-Remaining`, where it sends one (REAL-WORLD.md: since about 2026). */
  rateLimitRemaining?: number;
}

function wholeNumberHeader(value: string | string[] | undefined): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

function queryString(query: HttpRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The body as JSON. The real service's error bodies are not always JSON (HTML pages,
 * empty bodies, JSON cut off mid-way): those become a short `{message}` describing
 * what came, never a parse crash.
 */
export function parseBody(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: describeUnreadableBody(text) };
  }
}

function describeUnreadableBody(text: string): string {
  const trimmed = text.trim();
  if (/^<(!doctype|html|head|body|\?xml)/i.test(trimmed) || /<\/(html|body|title|h1)>/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(trimmed)?.[1];
    return `an HTML page instead of JSON${title?.trim() ? ` ("${title.trim().slice(0, 100)}")` : ""}`;
  }
  if (/^[[{]/.test(trimmed)) return "a JSON body cut off before its end";
  return `a body that is not JSON ("${trimmed.replace(/\s+/g, " ").slice(0, 100)}")`;
}

/**
 * What went wrong on the network, naming the address tried and, where the address itself is
 * the likely fault, the setting it comes from (never a credential: it travels in headers).
 */
function networkFailureDetail(code: string, url: URL, endpoint: AccountEndpoint): string {
  const address = `${endpoint.urlSetting} is ${url.origin}`;
  if (code === "TimeoutError") return `no answer from ${url.origin} within ${endpoint.timeoutMs} ms`;
  if (code === "ECONNREFUSED") return `${address}, which refused the connection (ECONNREFUSED)`;
  if (code === "ENOTFOUND") return `${address}, whose host ${url.hostname} does not resolve (ENOTFOUND)`;
  if (code === "EAI_AGAIN") return `${address}, whose host ${url.hostname} could not be resolved (EAI_AGAIN)`;
  if (isPermanentNetworkFailure(code)) return `${address}, whose TLS certificate or handshake was refused (${code})`;
  return `${code} talking to ${url.origin}`;
}

/** How an unreachable address failed, shortly: each later request of the account names it (see `unreachable`). */
function unreachableReason(code: string, endpoint: AccountEndpoint): string {
  const url = new URL(endpoint.rootUrl);
  if (code === "ECONNREFUSED") return `${endpoint.urlSetting} (${url.origin}) refused the connection`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host of ${endpoint.urlSetting} (${url.hostname}) did not resolve`;
  return `${endpoint.urlSetting} (${url.origin}) failed the TLS handshake`;
}

function networkErrorCode(error: unknown): string {
  const err = error as { name?: string; code?: string; cause?: { code?: string } };
  if (err?.name === "TimeoutError" || err?.name === "AbortError") return "TimeoutError";
  return err?.code ?? err?.cause?.code ?? err?.name ?? "network error";
}
