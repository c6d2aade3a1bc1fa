// The pieces every resource's provider shares: validating inputs into their
// normalized form before any request (settings included), diffing configuration
// fields only, so that a new package version, a rotated key or a creation-only
// option never shows as a change, and the bookkeeping of adoption.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { endpointFor, ServiceSettingsSpec, SettingsError } from "./settings";
import { FailureDetail, ServiceError } from "./transport/errors";

/** What preview sends for a value that is not known yet. */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const providerKey = "__provider";

/** Inputs without the serialized provider, which is bookkeeping and not configuration. */
export function withoutProvider(props: Record<string, unknown>): Record<string, unknown> {
  const { [providerKey]: _ignored, ...rest } = props;
  return rest;
}

/** Whether a value is, or holds at any depth, a value not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === unknownValue) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(containsUnknown);
}

/** What one kind of resource declares about itself; the shared lifecycle pieces read it. */
export interface ResourceKind<Schema extends z.AnyZodObject> {
  /** e.g. `crm.Account`. */
  type: string;
  /** A strict object schema (see strictObject) whose output is the normalized inputs. */
  schema: Schema;
  /** The services its calls go to: their settings are checked in check, before any request. */
  services: readonly ServiceSettingsSpec[];
  /** How messages name one object, e.g. `crm.Account "Acme"`; from inputs that may be partial or unknown. */
  label(inputs: Record<string, unknown>): string;
  /** Fields whose change creates a new object and deletes the old one; every other configuration field is changed in place (see updatableFields). */
  replaceOn?: readonly string[];
  /** Extra settings checks (e.g. the chat channel), also run in check. */
  checkSettings?(resource: string): void;
  /**
   * Rules across fields, and normalization that depends on another field (a default in
   * the form of its field's type): run in check once every input is known, it returns
   * the inputs and names each problem through `refuse`.
   */
  refine?(inputs: z.output<Schema>, refuse: (field: string, rule: string) => void): z.output<Schema>;
}

/** The label a kind gives its objects: `type "name"` when the named input is a known string. */
export function labelBy(type: string, field: string): (inputs: Record<string, unknown>) => string {
  return (inputs) => {
    const value = inputs[field];
    return typeof value === "string" && value.trim() && value !== unknownValue ? `${type} "${value}"` : type;
  };
}

/**
 * The label of a kind whose objects are named by ids, e.g. `crm.AccountNote on account
 * 12`: `describe` of the named inputs once each is an id, the type alone until then.
 */
export function labelByIds(type: string, fields: readonly string[], describe: (ids: string[]) => string): (inputs: Record<string, unknown>) => string {
  return (inputs) => {
    // Only a string or number can be an id; String() of any other input may throw (an own `toString` member).
    const ids = fields.map((field) => inputs[field]).map((id) => (typeof id === "string" || typeof id === "number" ? String(id) : ""));
    return ids.every((id) => /^[1-9]\d*$/.test(id)) ? `${type} ${describe(ids)}` : type;
  };
}

/**
 * Validates `news` against the kind's schema and returns its normalized form as the
 * inputs to store, or one failure per problem naming the field and the rule. A value
 * still unknown in a preview, at any depth, is not validated and passes through as it
 * is. Missing or malformed settings fail here too, so a preview reports them before
 * anything changes.
 */
export function checkInputs<Schema extends z.AnyZodObject>(
  kind: ResourceKind<Schema>,
  news: Record<string, unknown>,
): pulumi.dynamic.CheckResult {
  const given = withoutProvider(news);
  const resource = kind.label(given);
  const settingsProblem = settingsFailure(kind, resource);
  if (settingsProblem) return { failures: [settingsProblem] };
  const parsed = kind.schema.safeParse(given);
  if (parsed.success && kind.refine && !containsUnknown(given)) {
    const failures: pulumi.dynamic.CheckFailure[] = [];
    const refined = kind.refine(parsed.data, (field, rule) => failures.push({ property: field, reason: `${resource}: ${field} ${rule}` }));
    return failures.length ? { failures } : { inputs: { ...storable(refined), [providerKey]: news[providerKey] } };
  }
  if (parsed.success) return { inputs: { ...storable(parsed.data), [providerKey]: news[providerKey] } };
  // One failure per unknown field: a failure's property is one property path.
  const failures = parsed.error.issues
    .filter((issue) => !touchesUnknown(given, issue))
    .flatMap((issue): z.ZodIssue[] => (issue.code === z.ZodIssueCode.unrecognized_keys ? issue.keys.map((key) => ({ ...issue, keys: [key] })) : [issue]))
    .map((issue) => {
      const field = fieldOf(issue);
      return { property: field, reason: `${resource}: ${field} ${issue.message}` };
    });
  if (failures.length) return { failures };
  return { inputs: { ...normalizeKnownFields(kind.schema, given), [providerKey]: news[providerKey] } };
}

/**
 * A missing or malformed setting as a check failure of the whole resource (no property),
 * which the CLI reports once as "has a problem"; thrown, it would also be printed with its
 * stack by the provider host.
 */
function settingsFailure<Schema extends z.AnyZodObject>(kind: ResourceKind<Schema>, resource: string): pulumi.dynamic.CheckFailure | undefined {
  try {
    for (const service of kind.services) endpointFor(service, resource);
    kind.checkSettings?.(resource);
    return undefined;
  } catch (error) {
    if (error instanceof SettingsError) return { property: "", reason: error.message };
    throw error;
  }
}

/**
 * The normalized inputs without their undefined members, at any depth (an optional text
 * given as "" normalizes to undefined): the provider host's protobuf Struct refuses them,
 * and the whole check would fail with "Unexpected struct type".
 */
function storable<T>(value: T): T {
  if (Array.isArray(value)) return value.map(storable) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => [key, storable(member)]),
  ) as T;
}

/**
 * Whether an issue may be caused by a value not known yet: its path runs through an
 * unknown value, or it is about the object as a whole (a rule across fields) while
 * some value is unknown.
 */
function touchesUnknown(given: Record<string, unknown>, issue: z.ZodIssue): boolean {
  if (issue.code === z.ZodIssueCode.unrecognized_keys) return false;
  let value: unknown = given;
  for (const key of issue.path) {
    if (value === unknownValue) return true;
    value = typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[key] : undefined;
  }
  return containsUnknown(value);
}

/** In a preview with unknowns: each field free of unknowns normalized on its own, the rest as given. */
function normalizeKnownFields(schema: z.AnyZodObject, given: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [field, fieldSchema] of Object.entries(schema.shape as z.ZodRawShape)) {
    const value = given[field];
    if (containsUnknown(value)) {
      result[field] = value;
      continue;
    }
    const parsed = fieldSchema.safeParse(value);
    if (parsed.success && parsed.data !== undefined) result[field] = parsed.data;
  }
  return result;
}

/** The field an issue is about, as a dotted path; for unknown fields, the fields themselves. */
export function fieldOf(issue: z.ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === z.ZodIssueCode.unrecognized_keys) return issue.keys.map((key) => [...path, key].join(".")).join(", ");
  return path.join(".") || "(inputs)";
}

/** A strict object: zod's message for unknown fields is phrased for a reader who made a typo. */
export const strictObject = <Shape extends z.ZodRawShape>(shape: Shape, what = "this resource") =>
  z.object(shape).strict(`is not a field of ${what}; the fields are: ${Object.keys(shape).join(", ")}`);

/** One of a fixed list of words, with messages that list them. */
export function oneOf<Values extends [string, ...string[]]>(values: Values) {
  const allowed = `one of ${values.join(", ")}`;
  return z.enum(values, {
    errorMap: (_issue, context) => ({ message: context.data === undefined ? `is required: ${allowed}` : `must be ${allowed}` }),
  });
}

/**
 * The id of a service object, e.g. another resource's `id` output: digits, kept as a
 * string (a positive whole number is taken too). `what` names the object in messages.
 */
export const serviceId = (what: string) =>
  z.unknown().transform((value, context) => {
    const id = typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? String(value) : value;
    if (typeof id === "string" && /^[1-9]\d*$/.test(id)) return id;
    const message = value === undefined || value === null ? `is required: the id of ${what}` : `must be the id of ${what}: digits, such as its resource's \`id\``;
    context.addIssue({ code: z.ZodIssueCode.custom, message });
    return z.NEVER;
  });

/**
 * `adoptId`, which every resource takes: the id of an existing object to take over at
 * creation instead of making one. Read only at creation, like adoptExisting: never a
 * change, never drift, not an output.
 */
export const adoptIdInput = serviceId("an existing object to take over").optional();

/** Text that must be given: `what` says what it is in the message for a missing value. */
export const requiredText = (what: string, max: number) =>
  z
    .string({ required_error: `is required: ${what}`, invalid_type_error: "must be a string" })
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);

/** A name or label that the service compares trimmed: given, not only spaces, and without leading or trailing spaces. */
export const nameText = (what: string, max: number) =>
  requiredText(what, max)
    // "" is already "must not be empty".
    .refine((name) => name === "" || name.trim() !== "", "must not be blank")
    .refine((name) => name.trim() === "" || name === name.trim(), "must not start or end with spaces");

/** Whether a value is an absolute http or https URL. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** Optional text; "" means not set and is left out, as the service answers unset text with "". */
export const optionalText = (max: number) =>
  z
    .string({ invalid_type_error: "must be a string" })
    .max(max, `must be at most ${max} characters`)
    .optional()
    .transform((text) => text || undefined);

/** Inputs read only at creation (adoption): never a change, never drift, not outputs. */
const creationOnlyInputs: readonly string[] = ["adoptId", "adoptExisting"];

/** A schema's configuration fields: its inputs but the creation-only ones, in the schema's order. Each is an output too. */
export function configurationFields(schema: z.AnyZodObject): string[] {
  return Object.keys(schema.shape).filter((field) => !creationOnlyInputs.includes(field));
}

/** The fields an update changes in place: every configuration field whose change does not replace the object. */
export function updatableFields(kind: Pick<ResourceKind<z.AnyZodObject>, "schema" | "replaceOn">): string[] {
  return configurationFields(kind.schema).filter((field) => !kind.replaceOn?.includes(field));
}

/**
 * Compares the stored outputs with the new normalized inputs on the kind's
 * configuration fields only; every other input (adoption options) matters only at
 * creation and is never a change. A value still unknown in a preview counts as a change.
 */
export function diffInputs(
  kind: Pick<ResourceKind<z.AnyZodObject>, "schema" | "replaceOn">,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): pulumi.dynamic.DiffResult {
  const changed = (field: string) => containsUnknown(news[field]) || !sameValue(olds[field], news[field]);
  const replaces = (kind.replaceOn ?? []).filter(changed);
  const updates = updatableFields(kind).filter(changed);
  return { changes: replaces.length + updates.length > 0, replaces, deleteBeforeReplace: false };
}

/** Deep equality on JSON values, with undefined and null both meaning "not set". */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null) return b === undefined || b === null;
  if (typeof a !== "object" || typeof b !== "object" || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** The fields whose wanted value differs from the one held; an undefined wanted value is not managed, null is "not set". */
export function differingFields(wanted: Record<string, unknown>, held: Record<string, unknown>): string[] {
  return Object.keys(wanted).filter((field) => wanted[field] !== undefined && !sameValue(wanted[field], held[field]));
}

/** An object without its undefined members: unset optional members are left out of requests. */
export function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * The props a resource class hands to pulumi.dynamic.Resource: every argument the
 * user passed (so that check names a misspelt one instead of it being dropped), and
 * every output name, so that each becomes an output property whether set or not.
 */
export function resourceProps(args: object, outputs: readonly string[]): Record<string, unknown> {
  const props: Record<string, unknown> = { ...args };
  for (const name of outputs) if (!(name in props)) props[name] = undefined;
  return props;
}

// Unique names (account names, field labels) declared by this program run, by kind. A
// program runs once per preview and once per update, against one CRM account.
const declaredNames = new Map<string, Set<string>>();

/**
 * A unique name as a resource class hands it on, refused when another resource of the
 * program declared it already (regardless of case). This runs where the program runs,
 * so a preview fails on it before any request; a name known only later (an Output) is
 * checked once it resolves.
 */
export function declaredOnce(type: string, field: string, what: string, name: pulumi.Input<string>): pulumi.Input<string> {
  const declare = (resolved: string) => {
    if (typeof resolved !== "string") return resolved;
    let names = declaredNames.get(type);
    if (!names) declaredNames.set(type, (names = new Set()));
    const key = resolved.toLowerCase();
    if (names.has(key)) {
      throw new ServiceError(
        `${type} "${resolved}": two resources of this program declare the ${what} "${resolved}" (${what}s are unique regardless of case); give each its own ${what}.`,
        { code: "duplicate", field },
      );
    }
    names.add(key);
    return resolved;
  };
  return typeof name === "string" ? declare(name) : pulumi.output(name).apply(declare);
}

/** The resource options with these outputs marked secret, besides any the user named. */
export function withSecretOutputs(opts: pulumi.CustomResourceOptions | undefined, outputs: string[]): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...outputs] };
}

// Natural keys (account names, field labels) claimed by a create in this provider
// host, that is in this deployment, by account and kind: one deployment may manage
// two accounts, each with its own names.
const claimedKeys = new Map<string, Set<string>>();

/**
 * Claims a natural key for one create in this deployment; false when another
 * resource of the program claimed it already. Two resources declaring one unique
 * name can only end in a duplicate, or in two resources fighting over one object, so
 * the second is refused before any request and is never advised to adopt its sibling.
 */
export function claimNaturalKey(account: ServiceAccount, type: string, naturalKey: string): boolean {
  const scope = `${account.accountKey}|${type}`;
  let keys = claimedKeys.get(scope);
  if (!keys) claimedKeys.set(scope, (keys = new Set()));
  const key = naturalKey.toLowerCase();
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

/** A create that failed made nothing its own: the key is free again. */
export function releaseNaturalKey(account: ServiceAccount, type: string, naturalKey: string): void {
  claimedKeys.get(`${account.accountKey}|${type}`)?.delete(naturalKey.toLowerCase());
}

/** The account a client talks to, identified without its credential. */
interface ServiceAccount {
  accountKey: string;
}

/**
 * An adoptId that names no object of the kind, or (`found`, e.g. `a note on a contact`)
 * an object of another kind.
 */
export function notAdoptable(resource: string, type: string, id: string, found?: string): ServiceError {
  const named = found ? `${found}, not a ${type}` : `no ${type} of this CRM account`;
  return new ServiceError(
    `${resource}: adoptId ${id} names ${named}; give the id of an existing one (\`pulumi-crm export\` lists them), or remove adoptId to create a new one.`,
    { status: 404, field: "adoptId" },
  );
}

/**
 * The way out when a create runs into an existing object that may be what an interrupted
 * deployment made and never recorded (a kill between the service's answer and the state
 * write leaves a pending create, which the next `pulumi up` warns of): take it over, or
 * delete it. Nothing tells the provider whose it is, so it never takes it on its own.
 */
export function unrecordedObjectAdvice(id: string, objectUrl: string): string {
  return (
    `if an interrupted \`pulumi up\` made it (the next run warned of a pending create of this resource) and no other stack manages it, ` +
    `take it over with adoptId: "${id}"; if it is not wanted, delete it (DELETE ${objectUrl}, or in the CRM's UI); then run \`pulumi up\` again`
  );
}

/** Every adoption is said out loud, with the id taken over. */
export function announceAdoption(
  resource: string,
  id: string,
  onDestroy = "deletes it when the resource is destroyed or removed from the program, unless the resource is protected (protect: true) or has retainOnDelete: true",
): void {
  void pulumi.log.warn(`${resource}: took over the existing object with id ${id}; this stack now changes it, and ${onDestroy}`);
}

/**
 * A write the service answered but did not take. It carries the object's id and its
 * state as the service holds it, so the host records the object (Pulumi's "failed to
 * initialize") and the next `up` tries the change again, instead of orphaning it.
 */
export class UnconfirmedWriteError extends ServiceError {
  readonly reasons: string[];

  constructor(
    message: string,
    field: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
  ) {
    super(message, { code: "unconfirmed", field });
    this.reasons = [message];
  }
}

/**
 * An action that took effect and then failed (a run that started and ended FAILED, a
 * sync part of whose batches were queued). It carries the resource's id and outputs,
 * so the host records it (Pulumi's "failed to initialize") and the next `up` carries
 * on from there, instead of acting a second time.
 */
export class PartlyDoneError extends ServiceError {
  readonly reasons: string[];

  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    failure: FailureDetail = {},
  ) {
    super(message, failure);
    this.reasons = [message];
  }
}

/**
 * A write is confirmed only by what comes back: the service answers 200 to a PUT it
 * ignored. Throws, naming each field whose value differs from the one sent.
 */
export function confirmWrite(resource: string, id: string, sent: Record<string, unknown>, got: Record<string, unknown>): void {
  const ignored = differingFields(sent, got);
  if (!ignored.length) return;
  const fields = ignored.map((field) => `${field} (sent ${JSON.stringify(sent[field])}, service has ${JSON.stringify(got[field] ?? null)})`);
  throw new UnconfirmedWriteError(
    `${resource}: the service accepted the write but did not take ${fields.join(", ")}; run \`pulumi up\` again, and report it if it persists.`,
    ignored[0],
    id,
    got,
  );
}
