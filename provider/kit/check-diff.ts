// Check and diff, shared by every resource: validating inputs into their normalized form
// before any request (settings included), and diffing configuration fields only, so
// that a new package version, a rotated key or a creation-only option never shows as a change.

import { z } from "zod";
import { chatService, crmService, endpointFor, type ServiceSettingsSpec, SettingsError } from "../settings";
import type { Changes, Checked, CheckFailure } from "./core";
import type { InPlaceChange } from "./declaration";
import { configurationFields, containsUnknown, neverComparedFields, providerKey, storedInputs, unknownValue, withoutProvider } from "./inputs";

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
  /** Fields some of whose changes replace the object: those the rule does not allow in place. */
  replaceUnless?: Readonly<Record<string, InPlaceChange>>;
  /** Extra settings checks (e.g. the chat channel), also run in check. */
  checkSettings?(resource: string): void;
  /**
   * Rules across fields, and normalization that depends on another field (a default in
   * the form of its field's type): run in check once every input is known, it returns
   * the inputs and names each problem through `refuse`.
   */
  refine?(inputs: z.output<Schema>, refuse: (field: string, rule: string) => void): z.output<Schema>;
}

/** What a kind takes from its resource's declaration. */
export type DeclaredInKind = "type" | "schema" | "services" | "replaceOn" | "replaceUnless";

/** The part of a declaration a kind is made from. */
export interface Declared<Schema extends z.AnyZodObject> {
  namespace: "crm" | "chat";
  type: string;
  inputSchema: Schema;
  replaceOnChanges: readonly string[];
  replaceUnless?: Readonly<Record<string, InPlaceChange>>;
}

const servicesOf = { crm: [crmService], chat: [chatService] } as const;

/** A kind's type, schema, services (its namespace's) and replaced fields, as its declaration says them. */
export function declaredKind<Schema extends z.AnyZodObject>(declaration: Declared<Schema>): Pick<ResourceKind<Schema>, DeclaredInKind> {
  return {
    type: declaration.type,
    schema: declaration.inputSchema,
    services: servicesOf[declaration.namespace],
    replaceOn: declaration.replaceOnChanges,
    replaceUnless: declaration.replaceUnless,
  };
}

/** The label a kind gives its objects: `type "name"` when the named input is a known string. */
export function labelBy(type: string, field: string): (inputs: Record<string, unknown>) => string {
  return (inputs) => {
    const value = inputs[field];
    return typeof value === "string" && value.trim() && value !== unknownValue ? `${type} "${cutForMessage(value)}"` : type;
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
 * anything changes. The inputs never compared (creation-only, check-only) are stored under
 * a key of their own (see storedInputs).
 */
export function checkInputs<Schema extends z.AnyZodObject>(kind: ResourceKind<Schema>, news: Record<string, unknown>): Checked {
  const toStore = (inputs: Record<string, unknown>) => ({ ...storedInputs(inputs, neverComparedFields(kind.schema)), [providerKey]: news[providerKey] });
  // An input given null is unset, as one left out: what a YAML program's `${passwords["ada"]}` gives for a key its stack lacks.
  const given = Object.fromEntries(Object.entries(withoutProvider(news)).filter(([, value]) => value !== null));
  const resource = kind.label(given);
  const settingsProblem = settingsFailure(kind, resource);
  if (settingsProblem) return { failures: [settingsProblem] };
  const parsed = kind.schema.safeParse(given);
  if (parsed.success && kind.refine && !containsUnknown(given)) {
    const failures: CheckFailure[] = [];
    const refined = kind.refine(parsed.data, (field, rule) => failures.push(checkFailure(resource, given, pathOf(field), rule)));
    return failures.length ? { failures } : { inputs: toStore(storable(refined)) };
  }
  if (parsed.success) return { inputs: toStore(storable(parsed.data)) };
  // One failure per unknown field: a failure's property is one property path.
  const failures = parsed.error.issues
    .filter((issue) => !touchesUnknown(given, issue))
    .flatMap((issue): z.ZodIssue[] => (issue.code === z.ZodIssueCode.unrecognized_keys ? issue.keys.map((key) => ({ ...issue, keys: [key] })) : [issue]))
    .map((issue) =>
      checkFailure(resource, given, issue.code === z.ZodIssueCode.unrecognized_keys ? [...issue.path, ...issue.keys] : issue.path, issue.message),
    );
  if (failures.length) return { failures };
  return { inputs: toStore(normalizeKnownFields(kind.schema, given)) };
}

/**
 * One problem as the CLI shows it: `property <p> value {<v>} has a problem: <reason>`, where it
 * looks <p> up among the top-level inputs only and prints its value whole. A nested field (its
 * value shown as <nil>) or a long value (printed whole, and again in the resource's label) is
 * reported on the resource instead, the reason naming the field and its value, cut.
 */
function checkFailure(resource: string, given: Record<string, unknown>, path: ReadonlyArray<string | number>, rule: string): CheckFailure {
  const field = path.map((key, index) => (typeof key === "number" ? `[${key}]` : index ? `.${key}` : key)).join("");
  const value = path.reduce<unknown>((held, key) => (typeof held === "object" && held !== null ? (held as Record<string, unknown>)[key] : undefined), given);
  const shown = valueInMessage(value);
  if (path.length === 1 && (value === undefined || shown === JSON.stringify(value))) return { property: field, reason: `${resource}: ${field} ${rule}` };
  return { property: "", reason: `${resource}: ${field} ${rule} (given ${shown})` };
}

/** A dotted field path as zod gives paths: list positions as numbers. */
const pathOf = (field: string) => field.split(".").map((key) => (/^\d+$/.test(key) ? Number(key) : key));

/** The most characters of a value a message shows: a value may be a whole email body. */
const valueShownUpTo = 60;

/** A text as messages show it: cut after `valueShownUpTo` characters. */
function cutForMessage(text: string): string {
  return text.length <= valueShownUpTo ? text : `${text.slice(0, valueShownUpTo - 1)}…`;
}

/** A value as messages show it: as JSON, cut after `valueShownUpTo` characters; a cut text says how long it is. */
export function valueInMessage(value: unknown): string {
  if (typeof value === "string" && value.length > valueShownUpTo) return `${JSON.stringify(cutForMessage(value))} (${value.length} characters)`;
  return cutForMessage(value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value)));
}

/**
 * A missing or malformed setting as a check failure of the whole resource (no property),
 * which the CLI reports once as "has a problem"; thrown, it would also be printed with its
 * stack by the provider host.
 */
function settingsFailure<Schema extends z.AnyZodObject>(kind: ResourceKind<Schema>, resource: string): CheckFailure | undefined {
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
  kind: Pick<ResourceKind<z.AnyZodObject>, "schema" | "replaceOn" | "replaceUnless">,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Changes {
  const changed = (field: string) => containsUnknown(news[field]) || !sameValue(olds[field], news[field]);
  return {
    fields: configurationFields(kind.schema)
      .filter(changed)
      .map((field) => ({ field, replace: replacedBy(kind, field, olds[field], news[field]) })),
  };
}

/** Whether a change of the field replaces the object: always, or when its rule does not allow it in place (an unknown value never is). */
export function replacedBy(kind: Pick<ResourceKind<z.AnyZodObject>, "replaceOn" | "replaceUnless">, field: string, held: unknown, wanted: unknown): boolean {
  if (kind.replaceOn?.includes(field)) return true;
  const inPlace = kind.replaceUnless?.[field];
  return inPlace !== undefined && (containsUnknown(wanted) || !inPlace(held, wanted));
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
