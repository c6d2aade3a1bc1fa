// One error type for every failure of a service call, so that callers branch on
// `status` and `code` and users read one sentence naming the resource, the field
// and what to do.

export interface FailureDetail {
  /** HTTP status; undefined when no response arrived (timeout, reset, refused). */
  status?: number;
  /** Service code such as field_missing, field_invalid, duplicate. */
  code?: string;
  /** The offending field, from the error's source.pointer. */
  field?: string;
  /** The service's own words. */
  detail?: string;
}

/**
 * An error of pulumi-crm's own: its message is the whole story for the user, to be printed
 * once; our frames are not. Every error the package lets reach a program (settings, lookups,
 * names declared twice) or the provider host is one.
 * - The Pulumi program runner prints an unhandled error with a stack through
 *   util.inspect(err, { colors: true }), which on some Node.js releases (nodejs/node#64011,
 *   see ../node-version.ts) loops until out of memory on a frame such as
 *   `.../node_modules/@pulumi/output.ts:516:25`: a missing setting then took minutes and
 *   gigabytes to show. Without a stack it prints the message.
 * - The provider host prints a failed check, diff, read or delete as `${error}: ${error.stack}`
 *   (cmd/dynamic-provider), which a stack holding the message too printed twice.
 */
export class PulumiCrmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
    this.stack = "";
  }
}

/** Any error as one of the package's own, its message kept and its frames dropped. */
export function asPulumiCrmError(error: unknown): PulumiCrmError {
  if (error instanceof PulumiCrmError) return error;
  return new PulumiCrmError(error instanceof Error ? error.message : String(error));
}

export class ServiceError extends PulumiCrmError implements FailureDetail {
  declare readonly status?: number;
  declare readonly code?: string;
  declare readonly field?: string;
  declare readonly detail?: string;

  constructor(message: string, failure: FailureDetail) {
    super(message);
    // Kept for every subclass: the name users have seen in the host's messages.
    this.name = "ServiceError";
    // Only the details known, and not enumerable: callers branch on them, and an
    // inspected error shows its message alone, without a second, coloured copy of them.
    const { status, code, field, detail } = failure;
    for (const [key, value] of Object.entries({ status, code, field, detail })) {
      if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: false });
    }
  }
}

/**
 * A failure of work shared by several resources (one read of a custom field for all its
 * values), told in one resource's own name, with the shared failure's details.
 */
export function sharedFailureFor(resource: string, error: unknown): ServiceError {
  const shared = error instanceof Error ? error.message : String(error);
  return new ServiceError(`${resource}: ${shared}`, error instanceof ServiceError ? error : {});
}

/** What the caller knows about the call: whose request it was and what to advise per failure. */
export interface CallContext {
  /** e.g. `crm.Account "Acme"`. */
  resource: string;
  /**
   * Advice keyed by service code (`duplicate`), status (`404`) or `unconfirmed` (a
   * create that may have taken effect although it failed), overriding the defaults.
   */
  advice?: Record<string, string>;
  /** The setting that holds the key sent, named when the service refuses it. */
  credentialSetting?: CredentialSetting;
  /** The setting that paces requests to the service called, e.g. `chat:requestsPerSecond`, named when its limit is still exceeded. */
  rateSetting?: string;
}

/** A setting holding a key, as messages name it (`crm:apiToken`, or an explicit provider's own) and how to give it. */
export interface CredentialSetting {
  name: string;
  /** e.g. run `pulumi config set --secret crm:apiToken <CRM API token>`. */
  howToSet: string;
}

const defaultAdvice: Record<string, string> = {
  "400": "check the request values against the provider documentation",
  "401": "check that the API token is valid",
  "403": "check that the API token is valid and its user has permission for this resource",
  "404": "it no longer exists in the account; run `pulumi refresh` to drop it from the state",
  "422": "correct the value and run the update again",
  "429": "the account's rate limit was still exceeded after retrying; try again later",
  network: "check the service address and network, then try again",
  unconfirmed: "it may have taken effect on the service anyway: check there before running it again",
  server: "the service failed; try again later",
};

export function describeFailure(context: CallContext, failure: FailureDetail, unconfirmed = false): ServiceError {
  const status = failure.status;
  const what = status === undefined ? "the request did not complete" : `the service answered ${status}`;
  const code = failure.code ? ` (${failure.code})` : "";
  const field = failure.field ? ` for field "${failure.field}"` : "";
  const detail = failure.detail ? `: ${trimPeriod(failure.detail)}` : "";
  const advice =
    (failure.code && context.advice?.[failure.code]) ??
    credentialAdvice(context, status) ??
    rateAdvice(context, status) ??
    (status !== undefined ? context.advice?.[String(status)] : undefined) ??
    (unconfirmed ? (context.advice?.unconfirmed ?? defaultAdvice.unconfirmed) : undefined) ??
    (status !== undefined ? defaultAdvice[String(status)] : undefined) ??
    (status === undefined ? defaultAdvice.network : defaultAdvice.server);
  return new ServiceError(`${context.resource}: ${what}${code}${field}${detail}; ${advice}.`, failure);
}

/** A request not sent, as its account's address failed a moment before (`reason`: which setting, how, when). */
export function unsentFailure(context: CallContext, reason: string): ServiceError {
  return new ServiceError(`${context.resource}: not sent, as ${reason}; ${defaultAdvice.network}.`, {});
}

/** A refused key: which setting holds it, so the user knows which one to fix. */
function credentialAdvice(context: CallContext, status: number | undefined): string | undefined {
  if ((status !== 401 && status !== 403) || !context.credentialSetting || context.advice?.[String(status)]) return undefined;
  const { name, howToSet } = context.credentialSetting;
  return `the service refused the key in ${name}: check that it is valid for this account (${howToSet}) and that its user has permission for this resource`;
}

/** An exhausted rate limit: the setting that paces the service that answered, not the other service's. */
function rateAdvice(context: CallContext, status: number | undefined): string | undefined {
  if (status !== 429 || !context.rateSetting || context.advice?.["429"]) return undefined;
  return `the account's rate limit at this service was still exceeded after retrying; lower ${context.rateSetting} or try again later`;
}

/**
 * Reads the failure out of a response body. The service answers 422 with
 * `{errors: [{title, detail, code, source: {pointer}}]}`, 404 either with
 * `{errors: [{status, title}]}` or with `{message}`, 403 with `{message}`.
 */
export function parseFailureBody(status: number, body: unknown): FailureDetail {
  const failure: FailureDetail = { status };
  if (!body || typeof body !== "object") return failure;
  const record = body as Record<string, unknown>;
  const first = Array.isArray(record.errors) ? (record.errors[0] as Record<string, unknown> | undefined) : undefined;
  if (first && typeof first === "object") {
    if (typeof first.code === "string") failure.code = first.code;
    const pointer = (first.source as Record<string, unknown> | undefined)?.pointer;
    if (typeof pointer === "string" && pointer) failure.field = pointer.split("/").filter(Boolean).pop();
    const text = [first.title, first.detail].filter((part) => typeof part === "string" && part);
    if (text.length) failure.detail = [...new Set(text)].join(": ");
  } else if (typeof record.message === "string") {
    failure.detail = record.message;
  } else {
    Object.assign(failure, parseRestFrameworkBody(record));
  }
  return failure;
}

/**
 * The chat service answers as Django REST framework does: `{detail}`, or field
 * names mapped to lists of messages (nested for list members), with
 * `non_field_errors` for the request as a whole.
 */
function parseRestFrameworkBody(record: Record<string, unknown>): FailureDetail {
  if (typeof record.detail === "string") return { detail: record.detail };
  for (const [key, value] of Object.entries(record)) {
    const found = firstMessage(value);
    if (!found) continue;
    const path = [key, ...found.path].filter((part) => part !== "non_field_errors");
    return path.length ? { field: path.join("."), detail: found.message } : { detail: found.message };
  }
  return {};
}

function firstMessage(value: unknown, path: string[] = []): { path: string[]; message: string } | undefined {
  if (typeof value === "string") return { path, message: value };
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      // Lists of plain messages belong to the field itself; lists of objects are per item.
      const found = firstMessage(item, typeof item === "string" ? path : [...path, String(index)]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = firstMessage(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

function trimPeriod(text: string): string {
  return text.trim().replace(/\.+$/, "");
}
