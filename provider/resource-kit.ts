// The pieces every resource's provider shares: validating inputs into their
// normalized form before any request, and diffing configuration fields only, so
// that a new package version or a rotated key never shows as a change.

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";

/** What preview sends for a value that is not known yet. */
export const unknownValue = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const providerKey = "__provider";

/** Inputs without the serialized provider, which is bookkeeping and not configuration. */
export function withoutProvider(props: Record<string, unknown>): Record<string, unknown> {
  const { [providerKey]: _ignored, ...rest } = props;
  return rest;
}

/**
 * Validates `news` against the resource's schema and returns its normalized form
 * as the inputs to store, or one failure per problem naming the field and the rule.
 * Fields still unknown in a preview are not validated and pass through as they are.
 */
export function checkInputs<Schema extends z.AnyZodObject>(
  resource: string,
  schema: Schema,
  news: Record<string, unknown>,
): pulumi.dynamic.CheckResult {
  const given = withoutProvider(news);
  const unknownKeys = Object.keys(given).filter((key) => given[key] === unknownValue);
  const known = Object.fromEntries(Object.entries(given).filter(([key]) => !unknownKeys.includes(key)));
  const partial = unknownKeys.length
    ? schema.partial(Object.fromEntries(unknownKeys.filter((key) => key in schema.shape).map((key) => [key, true])))
    : schema;
  const parsed = partial.safeParse(known);
  if (!parsed.success) {
    return {
      failures: parsed.error.issues.map((issue) => {
        const field = fieldOf(issue);
        return { property: field, reason: `${resource}: ${field} ${issue.message}` };
      }),
    };
  }
  const unknowns = Object.fromEntries(unknownKeys.map((key) => [key, unknownValue]));
  return { inputs: { ...parsed.data, ...unknowns, [providerKey]: news[providerKey] } };
}

/** The field an issue is about, as a dotted path; for unknown fields, the fields themselves. */
function fieldOf(issue: z.ZodIssue): string {
  const path = issue.path.map(String);
  if (issue.code === z.ZodIssueCode.unrecognized_keys) return issue.keys.map((key) => [...path, key].join(".")).join(", ");
  return path.join(".") || "(inputs)";
}

/** Zod's message for unknown fields, phrased for a reader who made a typo. */
export const strictObject = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object(shape).strict(`is not a field of this resource; the fields are: ${Object.keys(shape).join(", ")}`);

export interface FieldRules {
  /** Changed in place by an update. */
  updatable: readonly string[];
  /** Changing them creates a new object and deletes the old one. */
  replaceOn?: readonly string[];
}

/**
 * Compares the stored outputs with the new normalized inputs on configuration
 * fields only. A value still unknown in a preview counts as a change.
 */
export function diffFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  rules: FieldRules,
): pulumi.dynamic.DiffResult {
  const changed = (field: string) => news[field] === unknownValue || !sameValue(olds[field], news[field]);
  const replaces = (rules.replaceOn ?? []).filter(changed);
  const updates = rules.updatable.filter(changed);
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
