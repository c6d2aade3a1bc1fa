// What the inputs of every resource are made of: the placeholder of a value not known
// yet, the serialized provider beside them, and the schema pieces that name each problem.

import { z } from "zod";

/** What preview sends for a value that is not known yet. */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export const providerKey = "__provider";

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

/** An object without its undefined members: unset optional members are left out of requests. */
export function withoutUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}
