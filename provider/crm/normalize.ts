// One form for each of the CRM service's loose encodings, so that what create
// returned and what read returns compare equal: ids and numbers come as numbers or
// digit strings, flags as 0/1, "0"/"1" or booleans, empty text as "" or null.

/** An id as a string, whatever the service sent ("644585" or 644585); null when absent. */
export function idOf(value: unknown): string | null {
  return value === undefined || value === null || value === "" ? null : String(value);
}

/** A 0/1, "0"/"1" or boolean flag as a boolean. */
export function flagOf(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "true";
}

/** Text, with "" and null both meaning "not set" (null). */
export function textOf(value: unknown): string | null {
  return value === undefined || value === null || value === "" ? null : String(value);
}

/** A number sent as a number or a numeric string; null when absent. */
export function numberOf(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** A boolean as the service's 0/1 flag in request bodies. */
export function flagForService(value: boolean | undefined): 0 | 1 | undefined {
  return value === undefined ? undefined : value ? 1 : 0;
}
