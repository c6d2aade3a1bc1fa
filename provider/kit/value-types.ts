// The types of resource fields, as a declaration states them (see ./declaration.ts): what
// the Pulumi package schema, the Args and output types and the docs tables are written
// from. Apart from the declaration kit so that the input pieces (./inputs.ts) can say
// what a check they build takes where its zod schema cannot show it (an id is checked
// by a transform of any value).

import type { z } from "zod";

export type ValueType =
  | { kind: "string"; minLength?: number; maxLength?: number; format?: "email" | "url" | "uuid" }
  | { kind: "id" }
  | { kind: "integer" | "number"; minimum?: number; maximum?: number }
  | { kind: "boolean" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "list"; items: ValueType; minItems?: number }
  | { kind: "map"; values: ValueType }
  | { kind: "union"; members: readonly ValueType[] }
  | { kind: "object"; name: string; description: string; fields: Readonly<Record<string, NestedField>> }
  | { kind: "any" };

/** A member of an object type: its type, whether it is always there, and what users read of it. */
export interface NestedField {
  type: ValueType;
  required: boolean;
  description: string;
}

const stated = new WeakMap<z.ZodTypeAny, ValueType>();

/** The check, marked as taking values of this type: for checks whose zod schema does not show it. */
export function ofType<Check extends z.ZodTypeAny>(check: Check, type: ValueType): Check {
  stated.set(check, type);
  return check;
}

/** The type a check was marked with (see ofType). */
export const statedType = (check: z.ZodTypeAny): ValueType | undefined => stated.get(check);

/** Types to build output-only fields and object members with. */
export const types = {
  string: { kind: "string" } as ValueType,
  id: { kind: "id" } as ValueType,
  integer: { kind: "integer" } as ValueType,
  number: { kind: "number" } as ValueType,
  boolean: { kind: "boolean" } as ValueType,
  any: { kind: "any" } as ValueType,
  list: (items: ValueType): ValueType => ({ kind: "list", items }),
  map: (values: ValueType): ValueType => ({ kind: "map", values }),
  union: (...members: ValueType[]): ValueType => ({ kind: "union", members }),
};
