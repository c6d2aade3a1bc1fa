// How the service stores a custom field's value, by the field's type: a leaf both the field
// definitions (their defaults) and the values read.

/** A value as stored: a string ("||a||b||" for multi-value fields), or an integer number of cents for currency. */
export type StoredValue = string | number;

export const MULTI_VALUE_TYPES = new Set(["multiselect", "checkbox"]);

/** The stored form of a value for a field type, or undefined when the value does not fit the type. */
export function normalizeValue(fieldType: string, value: unknown): StoredValue | undefined {
  switch (fieldType) {
    case "currency": {
      const cents = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof cents === "number" && Number.isInteger(cents) ? cents : undefined;
    }
    case "number":
      return (typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim()))
        ? String(value).trim()
        : undefined;
    case "date":
      return typeof value === "string" ? normalizeDate(value) : undefined;
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? value : undefined;
    default:
      if (MULTI_VALUE_TYPES.has(fieldType)) return multiValueOf(value);
      return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
  }
}

/** YYYY-MM-DD, YYYY/MM/DD and MM/DD/YYYY are accepted; stored as YYYY-MM-DD. */
function normalizeDate(value: string): string | undefined {
  const text = value.trim();
  const parts = /^(\d{4})[-/](\d{2})[-/](\d{2})$/.exec(text) ?? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!parts) return undefined;
  const [year, month, day] = parts[1].length === 4 ? [parts[1], parts[2], parts[3]] : [parts[3], parts[1], parts[2]];
  const iso = `${year}-${month}-${day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : undefined;
}

/**
 * The service stores and answers a multi-value field's value as "||a||b||" (REAL-WORLD.md),
 * whether it was sent as that string or as an array of strings.
 */
function multiValueOf(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.every((v) => typeof v === "string") ? (value.length === 0 ? "" : `||${value.join("||")}||`) : undefined;
  return typeof value === "string" ? value : undefined;
}
