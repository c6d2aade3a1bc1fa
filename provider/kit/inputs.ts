// What the inputs of every resource are made of: the placeholder of a value not known
// yet, the serialized provider beside them, and the schema pieces that name each problem.

import { z } from "zod";
import { ofType } from "./value-types";

/** What preview sends for a value that is not known yet. */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const providerKey = "__provider";

/**
 * Inputs as the program declares them: without the serialized provider, which is bookkeeping
 * and not configuration, and with the inputs never compared back in place (see storedInputs).
 */
export function withoutProvider(props: Record<string, unknown>): Record<string, unknown> {
  const { [providerKey]: _ignored, [neverComparedKey]: neverCompared, ...rest } = props;
  return typeof neverCompared === "object" && neverCompared !== null ? { ...rest, ...neverCompared } : rest;
}

/** Whether a value is, or holds at any depth, a value not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (value === unknownValue) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(containsUnknown);
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
  ofType(
    z.unknown().transform((value, context) => {
      const id = typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? String(value) : value;
      if (typeof id === "string" && /^[1-9]\d*$/.test(id)) return id;
      const message =
        value === undefined || value === null ? `is required: the id of ${what}` : `must be the id of ${what}: digits, such as its resource's \`id\``;
      context.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    }),
    { kind: "id" },
  );

/**
 * `adoptId`, which every resource takes: the id of an existing object to take over at
 * creation instead of making one. Read only at creation, like adoptExisting: never a
 * change, never drift, not an output.
 */
export const adoptIdInput = serviceId("an existing object to take over").optional();

/**
 * The one rule of every text input that must be given: missing, it is required (`what`
 * says what it is); empty or only spaces, it "must not be blank". `rules` (a length, a
 * format) judge only text that is not blank, so that blank text gets that one message.
 */
export const givenText = <Rules extends z.ZodTypeAny>(what: string, rules: Rules) =>
  z
    .string({ required_error: `is required: ${what}`, invalid_type_error: "must be a string" })
    .refine((text) => text.trim() !== "", "must not be blank")
    .pipe(rules);

/** Text that must be given, of at most `max` characters (see givenText). */
export const requiredText = (what: string, max: number) => givenText(what, z.string().max(max, `must be at most ${max} characters`));

/** A name or label that the service compares trimmed: given, not blank, and without leading or trailing spaces. */
export const nameText = (what: string, max: number) =>
  requiredText(what, max)
    // Blank text is already "must not be blank".
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
export const creationOnlyInputs: readonly string[] = ["adoptId", "adoptExisting"];

/** The stored input that holds the inputs never compared: creation-only and check-only (see storedInputs). */
const neverComparedKey = "__neverCompared";

/**
 * Checked inputs as the state stores them: those that are never a change (`neverCompared`:
 * the creation-only inputs and a schema's check-only ones) under one key whose name starts
 * with `__`, which the CLI never shows as a change. A read cannot give them back (the object
 * does not hold them), and a refresh that read back fewer inputs than are stored would show
 * each one missing as a change: `[diff: -adoptExisting]` on every line of `pulumi up
 * --refresh`. withoutProvider puts them back in place for the lifecycle.
 */
export function storedInputs(inputs: Record<string, unknown>, neverCompared: readonly string[]): Record<string, unknown> {
  const stashed = Object.entries(inputs).filter(([field]) => neverCompared.includes(field));
  if (stashed.length === 0) return inputs;
  const configuration = Object.entries(inputs).filter(([field]) => !neverCompared.includes(field));
  return { ...Object.fromEntries(configuration), [neverComparedKey]: Object.fromEntries(stashed) };
}

const checkOnlySchemas = new WeakSet<z.ZodTypeAny>();

/**
 * An input only check reads, to refuse in a preview what a write would refuse later (a
 * value's field options): like the creation-only ones, never a change, never drift, not an output.
 */
export function checkOnly<Schema extends z.ZodTypeAny>(schema: Schema): Schema {
  checkOnlySchemas.add(schema);
  return schema;
}

/** A schema's configuration fields: its inputs but the creation-only and check-only ones, in the schema's order. Each is an output too. */
export function configurationFields(schema: z.AnyZodObject): string[] {
  const shape: z.ZodRawShape = schema.shape;
  return Object.keys(shape).filter((field) => !creationOnlyInputs.includes(field) && !checkOnlySchemas.has(shape[field]));
}

/** A schema's inputs that are never a change and never drift: the creation-only and check-only ones. */
export function neverComparedFields(schema: z.AnyZodObject): string[] {
  const configuration = configurationFields(schema);
  return Object.keys(schema.shape).filter((field) => !configuration.includes(field));
}

/** An object without its undefined members: unset optional members are left out of requests. */
export function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A set of at least one of `values`, normalized sorted and without repeats (see oneOf). */
export const setOf = <Values extends [string, ...string[]]>(values: Values, what: string) =>
  z
    .array(oneOf(values), { required_error: `is required: ${what}`, invalid_type_error: `must be a list of ${what}` })
    .min(1, `must hold at least one of ${values.join(", ")}`)
    .transform((words) => [...new Set(words)].sort());

/** An http or https URL (see isWebAddress). */
export const webAddress = (what: string, max = 1000) =>
  givenText(
    what,
    z.string().max(max, `must be at most ${max} characters`).refine(isWebAddress, "must be an http or https URL such as https://hooks.example/crm"),
  );

/** A set of service ids (`what` names one), kept sorted; an empty set is unset. */
export const idSet = (what: string) =>
  z
    .array(serviceId(what), { invalid_type_error: `must be a list of ids of ${what}s` })
    .optional()
    .transform((ids) => (ids?.length ? [...new Set(ids)].sort((a, b) => Number(a) - Number(b)) : undefined));

/** A whole number from `least` (a position). */
export const wholeNumber = (least: number) =>
  z
    .number({ invalid_type_error: `must be a whole number from ${least}` })
    .int(`must be a whole number from ${least}`)
    .min(least, `must be a whole number from ${least}`);
