// Taking over what an account has from the start and the API can neither create nor
// delete (the branding, the account-wide switches): create remembers, in the state's
// `originalValues`, the value each managed field had before the stack first changed it;
// update remembers a field newly managed and forgets one no longer managed (its value put
// back); delete puts back every remembered value, so destroy leaves the account as found.

import { output } from "./declaration";
import { containsUnknown } from "./inputs";
import { sameValue } from "./check-diff";
import { types } from "./value-types";

/** What the stack found before managing each field; destroy puts it back. */
export type OriginalValues = Record<string, string | boolean>;

/** The output that holds them. */
export const originalValuesOutput = () =>
  output(types.map(types.union(types.string, types.boolean)), "The value each managed field had before this stack first changed it; destroy puts them back.");

/** The values remembered in a state (none before the first take-over's write). */
export const originalsOf = (state: Record<string, unknown>): OriginalValues => (state.originalValues ?? {}) as OriginalValues;

/** The values of `fields` in `values`, each field present (undefined when unset). */
export const pick = (values: Record<string, unknown>, fields: readonly string[]): Record<string, string | boolean | undefined> =>
  Object.fromEntries(fields.map((field) => [field, values[field] as string | boolean | undefined]));

/**
 * Whether a field changes: set, when its value does; no longer set, when the stack
 * manages it (its remembered value is put back).
 */
export const changedField = (olds: Record<string, unknown>, news: Record<string, unknown>) => {
  const remembered = originalsOf(olds);
  return (field: string) => containsUnknown(news[field]) || (news[field] === undefined ? field in remembered : !sameValue(olds[field], news[field]));
};

/**
 * What an update remembers: what was remembered, less the fields released (put back now),
 * plus the fields newly managed as `current` holds them (read before their first change).
 * A field changed between ups keeps the value remembered when the stack first managed it.
 */
export function rememberedAfter(
  remembered: OriginalValues,
  released: readonly string[],
  current: Record<string, unknown>,
  newlyManaged: readonly string[],
): OriginalValues {
  return {
    ...Object.fromEntries(Object.entries(remembered).filter(([field]) => !released.includes(field))),
    ...pick(current, newlyManaged),
  } as OriginalValues;
}
