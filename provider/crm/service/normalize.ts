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

/**
 * Optional text, with "" and null both meaning "not set": undefined, so that the member
 * is left out of the state and of read's inputs, as an unset input is left out.
 */
export function optionalTextOf(value: unknown): string | undefined {
  return textOf(value) ?? undefined;
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

/**
 * The options of a multi-value field as a list: the service takes and answers them as
 * an array or as one string `||a||b||`; null when the value is neither.
 */
export function multiValueOf(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.every((item) => typeof item === "string") ? (value as string[]) : null;
  if (typeof value === "string") return value.split("||").filter((part) => part !== "");
  return null;
}

/** A list of options in the service's stored form, `||a||b||`. */
export function multiValueForService(values: readonly string[]): string {
  return `||${values.join("||")}||`;
}

/** A currency code in capitals, whatever case the service answers; null when absent. */
export function currencyCodeOf(value: unknown): string | null {
  return textOf(value)?.toUpperCase() ?? null;
}

/** A calendar date and, when given, a time of day in UTC. */
export interface DateTimeParts {
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM:SS; undefined when only a date was given. */
  time?: string;
}

/**
 * A date in any of the service's accepted forms (YYYY-MM-DD, YYYY/MM/DD, MM/DD/YYYY),
 * optionally followed by a time (` ` or `T`, HH:MM or HH:MM:SS) and a UTC offset (`Z`,
 * `+00:00`): the time is turned into UTC, the date kept as written when no time is
 * given. Null for anything else, impossible dates (02/30) included.
 */
export function dateTimePartsOf(value: unknown): DateTimeParts | null {
  if (typeof value !== "string") return null;
  const match = /^(?:(\d{4})[-/](\d{2})[-/](\d{2})|(\d{2})\/(\d{2})\/(\d{4}))(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = match[1] ? [match[1], match[2], match[3]] : [match[6], match[4], match[5]];
  const date = `${year}-${month}-${day}`;
  if (!isCalendarDate(date)) return null;
  const [hours, minutes, seconds = "00", offset] = match.slice(7);
  if (hours === undefined) return { date };
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return null;
  const utc = new Date(`${date}T${hours}:${minutes}:${seconds}${offsetForIso(offset)}`).toISOString();
  return { date: utc.slice(0, 10), time: utc.slice(11, 19) };
}

function isCalendarDate(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

/** `Z`, `+0100` or `+01:00` as ISO 8601 takes it; no offset means UTC. */
function offsetForIso(offset: string | undefined): string {
  if (!offset || offset === "Z") return "Z";
  return offset.includes(":") ? offset : `${offset.slice(0, 3)}:${offset.slice(3)}`;
}

/**
 * A timestamp as ISO 8601 in UTC (`2024-01-08T20:00:00.000Z`), whatever offset the
 * service wrote; null when absent or the zero date `0000-00-00 00:00:00`. A time
 * without an offset (the account's local time, offset unknown) keeps its wall clock,
 * as `YYYY-MM-DDTHH:MM:SS`.
 */
export function timestampOf(value: unknown): string | null {
  const text = textOf(value)?.trim().replace(" ", "T");
  if (!text || text.startsWith("0000-00-00")) return null;
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) return text;
  const time = Date.parse(text);
  return Number.isNaN(time) ? text : new Date(time).toISOString();
}
