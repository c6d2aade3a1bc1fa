// Request validation shaped like Django REST Framework serializers, because the chat
// service is a DRF application (drf-spectacular schema, `Token` auth): the same
// coercions (booleans and integers from strings), the same messages and the same
// error shapes, e.g. {"contact_list": [{}, {"email": ["Enter a valid email address."]}]}.

/** Messages for one field, errors of a nested object by field, or errors of a list. */
export type ErrorDetail = string[] | { [key: string]: ErrorDetail } | ErrorDetail[];

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ErrorDetail };

/** Parses one input value; `undefined` never reaches a field (objects handle absence). */
export type Field<T> = (input: unknown) => Parsed<T>;

const valid = <T>(value: T): Parsed<T> => ({ ok: true, value });
const invalid = (...messages: string[]): Parsed<never> => ({ ok: false, error: messages });

const NOT_NULL = "This field may not be null.";
const REQUIRED = "This field is required.";

/** Python's name for the type of a JSON value, as DRF puts it in its messages. */
function pythonTypeName(input: unknown): string {
  if (Array.isArray(input)) return "list";
  if (typeof input === "string") return "str";
  if (typeof input === "boolean") return "bool";
  if (typeof input === "number") return Number.isInteger(input) ? "int" : "float";
  return "dict";
}

/** A field that refuses null, as DRF fields do unless they allow null. */
function nonNull<T>(parse: (input: unknown) => Parsed<T>): Field<T> {
  return (input) => (input === null ? invalid(NOT_NULL) : parse(input));
}

export function nullable<T>(field: Field<T>): Field<T | null> {
  return (input) => (input === null ? valid(null) : field(input));
}

export const anyJson: Field<unknown> = valid;

const TRUE_WORDS = new Set(["t", "y", "yes", "true", "on", "1"]);
const FALSE_WORDS = new Set(["f", "n", "no", "false", "off", "0"]);

export const boolean: Field<boolean> = nonNull((input) => {
  if (typeof input === "boolean") return valid(input);
  if (typeof input === "string" || typeof input === "number") {
    const word = String(input).toLowerCase();
    if (TRUE_WORDS.has(word)) return valid(true);
    if (FALSE_WORDS.has(word)) return valid(false);
  }
  return invalid("Must be a valid boolean.");
});

// DRF's IntegerField takes integral numbers and their decimal spellings ("7", "7.0").
const INTEGER_TEXT = /^\s*[-+]?\d+(?:\.0*)?\s*$/;

export const integer: Field<number> = nonNull((input) => {
  const parsed = typeof input === "number" ? input : typeof input === "string" && INTEGER_TEXT.test(input) ? Number(input) : NaN;
  return Number.isSafeInteger(parsed) ? valid(parsed) : invalid("A valid integer is required.");
});

export function choice<T extends string>(choices: readonly T[]): Field<T> {
  return nonNull((input) => ((choices as readonly unknown[]).includes(input) ? valid(input as T) : invalid(`"${String(input)}" is not a valid choice.`)));
}

/** A string format: a test, DRF's message on failure, and the canonical form to store. */
export interface StringFormat {
  test(text: string): boolean;
  message: string;
  normalize?(text: string): string;
}

export function string(rules: { maxLength?: number; format?: StringFormat } = {}): Field<string> {
  return nonNull((input) => {
    if (typeof input !== "string") return invalid("Not a valid string.");
    const messages: string[] = [];
    if (rules.format && !rules.format.test(input)) messages.push(rules.format.message);
    if (rules.maxLength !== undefined && input.length > rules.maxLength) {
      messages.push(`Ensure this field has no more than ${rules.maxLength} characters.`);
    }
    if (messages.length > 0) return invalid(...messages);
    return valid(rules.format?.normalize ? rules.format.normalize(input) : input);
  });
}

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const UUID_FORMAT: StringFormat = {
  test: (text) => UUID_TEXT.test(text),
  message: "Must be a valid UUID.",
  normalize: (text) => text.toLowerCase(),
};

// Django's EmailValidator in short: a dot-atom local part, then a domain with a
// top-level label of letters, or localhost.
const EMAIL_TEXT = /^[\w!#$%&'*+/=?^`{|}~-]+(?:\.[\w!#$%&'*+/=?^`{|}~-]+)*@(?:localhost|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/i;

export const EMAIL_FORMAT: StringFormat = {
  test: (text) => EMAIL_TEXT.test(text),
  message: "Enter a valid email address.",
};

// Django's URLValidator: these schemes only, and a host that is a domain name, localhost or an IP.
const URL_SCHEMES = new Set(["http:", "https:", "ftp:", "ftps:"]);

export const URL_FORMAT: StringFormat = {
  test(text) {
    if (!URL.canParse(text) || /\s/.test(text)) return false;
    const url = new URL(text);
    return URL_SCHEMES.has(url.protocol) && (url.hostname.includes(".") || url.hostname.startsWith("[") || url.hostname === "localhost");
  },
  message: "Enter a valid URL.",
};

// Django's parse_datetime: ISO 8601 with an optional offset; values without one are UTC here.
const DATE_TIME_TEXT = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseDateTime(text: string): number | undefined {
  const match = DATE_TIME_TEXT.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = "0", fraction = "0", offset = "Z"] = match;
  const wallClock = Date.UTC(+year, +month - 1, +day, +hour, +minute, +second, Math.floor(Number(`0.${fraction}`) * 1000));
  const calendar = new Date(wallClock);
  // Date.UTC rolls 2024-02-30 over to March; Django refuses it.
  if (calendar.getUTCMonth() !== +month - 1 || calendar.getUTCDate() !== +day || +hour > 23 || +minute > 59 || +second > 59) {
    return undefined;
  }
  if (offset.toUpperCase() === "Z") return wallClock;
  const digits = offset.replace(":", "");
  const offsetMinutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3) || "0");
  return wallClock - (digits[0] === "-" ? -1 : 1) * offsetMinutes * 60_000;
}

export const DATE_TIME_FORMAT: StringFormat = {
  test: (text) => parseDateTime(text) !== undefined,
  message: "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].",
  normalize: (text) => new Date(parseDateTime(text)!).toISOString(),
};

function parseItems<T>(input: unknown[], child: Field<T>): { values: T[]; errors: Map<number, ErrorDetail> } {
  const values: T[] = [];
  const errors = new Map<number, ErrorDetail>();
  input.forEach((item, index) => {
    const parsed = child(item);
    if (parsed.ok) values.push(parsed.value);
    else errors.set(index, parsed.error);
  });
  return { values, errors };
}

const notAList = (input: unknown) => invalid(`Expected a list of items but got type "${pythonTypeName(input)}".`);

/** DRF's ListField: errors of a list of plain values are keyed by index, {"1": ["..."]}. */
export function listOf<T>(child: Field<T>): Field<T[]> {
  return nonNull((input) => {
    if (!Array.isArray(input)) return notAList(input);
    const { values, errors } = parseItems(input, child);
    return errors.size === 0 ? valid(values) : { ok: false, error: Object.fromEntries(errors) };
  });
}

/** DRF's many=True serializer: errors of a list of objects line up with the items, [{}, {...}]. */
export function many<T>(child: Field<T>): Field<T[]> {
  return nonNull((input) => {
    if (!Array.isArray(input)) return notAList(input);
    const { values, errors } = parseItems(input, child);
    return errors.size === 0 ? valid(values) : { ok: false, error: input.map((_, index) => errors.get(index) ?? {}) };
  });
}

export interface Member {
  field: Field<unknown>;
  required?: boolean;
  /** Stored when the member is absent, as DRF's `default=`. */
  default?: unknown;
}

export type JsonObject = Record<string, unknown>;

/** A DRF serializer: declared members only (others are dropped), defaults filled in. */
export function object(members: Record<string, Member>): Field<JsonObject> {
  return nonNull((input) => {
    if (typeof input !== "object" || Array.isArray(input)) {
      return { ok: false, error: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonTypeName(input)}.`] } };
    }
    const source = input as JsonObject;
    const value: JsonObject = {};
    const errors: Record<string, ErrorDetail> = {};
    for (const [name, member] of Object.entries(members)) {
      if (source[name] === undefined) {
        if (member.required) errors[name] = [REQUIRED];
        else if (member.default !== undefined) value[name] = member.default;
        continue;
      }
      const parsed = member.field(source[name]);
      if (parsed.ok) value[name] = parsed.value;
      else errors[name] = parsed.error;
    }
    return Object.keys(errors).length === 0 ? valid(value) : { ok: false, error: errors };
  });
}
