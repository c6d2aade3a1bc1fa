// What users read of a declared field (see provider/kit/declaration.ts), as the generated
// types, docs tables and package schema all say it: its description, then what its type,
// limits, default and change behaviour add.

import type { Field } from "../../provider/kit/declaration";
import type { NestedField, ValueType } from "../../provider/kit/value-types";

/** What a field's type and limits say, as sentences: `At most 255 characters.` */
export function limitsOf(type: ValueType): string[] {
  switch (type.kind) {
    case "string": {
      const { minLength: min, maxLength: max } = type;
      const length = min && max ? `${min} to ${max} characters` : max ? `at most ${max} characters` : min ? `at least ${min} characters` : undefined;
      const format = type.format && { email: "an email address", url: "a URL", uuid: "a UUID" }[type.format as string];
      return [[format, length].filter(Boolean).join(", ")].filter(Boolean).map(sentence);
    }
    case "integer":
    case "number": {
      const what = type.kind === "integer" ? "a whole number" : "a number";
      const { minimum: min, maximum: max } = type;
      if (min === undefined && max === undefined) return [];
      return [
        sentence(min !== undefined && max !== undefined ? `${what} from ${min} to ${max}` : min !== undefined ? `${what} from ${min}` : `${what} up to ${max}`),
      ];
    }
    case "list":
      return type.minItems ? [sentence(`at least ${type.minItems === 1 ? "one" : type.minItems}`)] : [];
    default:
      return [];
  }
}

const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}.`;

/** How a change of an input takes effect, as the docs' Changes column says it. */
export function changeOf(field: Field): string {
  if (field.readAt === "creation") return "only read at creation";
  if (field.readAt === "check") return "only read by check";
  if (field.replaceUnless) return "in place or replaces";
  return field.replaceOnChanges ? "replaces the resource" : "update in place";
}

const changeSentence: Record<string, string> = {
  "only read at creation": "Read only at creation; changing or removing it later changes nothing.",
  "only read by check": "Read only by check: never a change, not an output.",
  "replaces the resource": "A change replaces the resource.",
  "update in place": "Changed in place.",
  "in place or replaces": "Some changes are made in place, the others replace the resource.",
};

export const defaultText = (value: unknown) => JSON.stringify(value);

/** What users read of an input: its description, limits, default and how a change takes effect. */
export function inputDescription(field: Field): string {
  const fallback = field.default === undefined ? [] : [`Default ${defaultText(field.default)}.`];
  return [field.description, ...limitsOf(field.type), ...fallback, changeSentence[changeOf(field)]].join(" ");
}

/** What users read of an output. */
export const outputDescription = (field: Field | NestedField) =>
  [field.description, ...limitsOf(field.type), ...("secret" in field && field.secret ? ["Secret: kept encrypted in the state, shown as [secret]."] : [])].join(
    " ",
  );

/** Whether an output is there whatever the inputs: a required input, an input with a default, or an output the provider always sets. */
export const alwaysOutput = (field: Field) => field.required || field.default !== undefined;
