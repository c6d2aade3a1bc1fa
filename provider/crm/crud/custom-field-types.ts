// The types of custom account fields, and the one form a value (or a field's default)
// of each type takes in inputs and state: shared by crm.AccountCustomField (defaults)
// and crm.AccountCustomFieldValue (values), so both compare what they send with what
// the service answers in the same way.

import { z } from "zod";
import { dateTimePartsOf, multiValueForService, multiValueOf } from "../service/normalize";

export const fieldTypes: ["text", "textarea", "date", "datetime", "dropdown", "multiselect", "radio", "checkbox", "hidden", "currency", "number"] = [
  "text",
  "textarea",
  "date",
  "datetime",
  "dropdown",
  "multiselect",
  "radio",
  "checkbox",
  "hidden",
  "currency",
  "number",
];

/** Types whose values are chosen from the field's options. */
export const optionTypes: ReadonlySet<string> = new Set(["dropdown", "multiselect", "radio", "checkbox"]);

/** A value in its state form: a list for multi-value types, a number for currency (minor units) and number, else a string. */
export type FieldValue = string | string[] | number;

export type Fitted = { value: FieldValue } | { problem: string };

/**
 * A value for a field of this type in its one form, or what is wrong with it: dates
 * as YYYY-MM-DD (from YYYY-MM-DD, YYYY/MM/DD or MM/DD/YYYY), date-times as
 * `YYYY-MM-DD HH:MM:SS` in UTC, lists of distinct options (from a list or `||a||b||`),
 * whole minor units for currency and numbers from numbers or numeric strings.
 */
export function fitValue(type: string, value: unknown): Fitted {
  switch (type) {
    case "multiselect":
    case "checkbox":
      return fitOptionList(value, type);
    case "date": {
      const parts = dateTimePartsOf(value);
      return parts && (parts.time === undefined || parts.time === "00:00:00")
        ? { value: parts.date }
        : { problem: "must be a date as YYYY-MM-DD, YYYY/MM/DD or MM/DD/YYYY for a date field" };
    }
    case "datetime": {
      const parts = dateTimePartsOf(value);
      return parts
        ? { value: `${parts.date} ${parts.time ?? "00:00:00"}` }
        : { problem: "must be a date and time as YYYY-MM-DD HH:MM:SS (UTC; an ISO 8601 offset is converted) for a datetime field" };
    }
    case "currency": {
      const amount = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof amount === "number" && Number.isSafeInteger(amount)
        ? { value: amount }
        : { problem: "must be a whole amount in minor units (10050 for 100.50) for a currency field" };
    }
    case "number": {
      const number = typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
      return typeof number === "number" && Number.isFinite(number) ? { value: number } : { problem: "must be a number for a number field" };
    }
    default:
      return typeof value === "string" ? { value } : { problem: `must be a string for a ${type} field` };
  }
}

function fitOptionList(value: unknown, type: string): Fitted {
  const options = multiValueOf(value);
  const wanted = `must be a list of the field's options, such as ["a", "b"], for a ${type} field`;
  if (!options || options.length === 0) return { problem: wanted };
  if (options.some((option) => option.trim() === "" || option.includes("||"))) return { problem: `${wanted}; options are not empty and hold no "||"` };
  if (new Set(options).size !== options.length) return { problem: `${wanted}; each option at most once` };
  return { value: options };
}

/**
 * Why a value (a list: each of its options) is not among a field's options, or undefined
 * when it is. Options are quoted, since they may hold commas and spaces.
 */
export function notAmongOptions(value: FieldValue, options: readonly string[]): string | undefined {
  const outside = [value]
    .flat()
    .map(String)
    .filter((choice) => !options.includes(choice));
  const quoted = (choices: readonly string[]) => choices.map((choice) => JSON.stringify(choice)).join(", ");
  return outside.length ? `must be among the field's options (${quoted(options)}); ${quoted(outside)} ${outside.length === 1 ? "is" : "are"} not` : undefined;
}

/** A field's options as a list; null, [] or "" (a type without options) as unset. */
export function optionsOf(value: unknown): string[] | undefined {
  const options = multiValueOf(value);
  return options?.length ? options : undefined;
}

/**
 * A value as the service answers it, in the state form of its type. What does not fit
 * is kept as the service has it (as text, or as a list), so that it shows as a
 * difference instead of failing the read.
 */
export function valueFromService(type: string | undefined, raw: unknown): FieldValue | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  if (type) {
    const fitted = fitValue(type, raw);
    if ("value" in fitted) return fitted.value;
  }
  return Array.isArray(raw) ? raw.map(String) : typeof raw === "number" ? raw : String(raw);
}

/** A value as the service takes it: a string, as the reference declares fieldValue and fieldDefault; lists as `||a||b||`. */
export function valueForService(value: FieldValue): string {
  return Array.isArray(value) ? multiValueForService(value) : String(value);
}

/**
 * The input form of a value or default: a string, a number or a list of strings. Whether
 * it fits the field's type is decided where the type is known.
 */
export const fieldValueInput = (what: string) =>
  z.union([z.string(), z.number().finite(), z.array(z.string())], {
    errorMap: (_issue, context) => ({
      message:
        context.data === undefined
          ? `is required: ${what}`
          : "must be a string, a number (currency in minor units, number) or a list of strings (multiselect, checkbox)",
    }),
  });

/** A 3-letter currency code, in capitals whatever the case given, as currencyCodeOf reads the service's. */
export const currencyCodeInput = z
  .string({ invalid_type_error: "must be a 3-letter currency code such as USD" })
  .regex(/^[A-Za-z]{3}$/, "must be a 3-letter currency code such as USD")
  .transform((code) => code.toUpperCase());
