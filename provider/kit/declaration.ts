// One declaration per resource: each field once, with its check, its description and
// what the engine needs to know of it (replace on change, secret). From it come the
// input schema check runs (the fields' zod checks, as strictObject puts them together),
// the outputs the class declares, and, through `npm run generate` (scripts/generate/index.ts),
// the Args and output types, the docs tables and the Pulumi package schema. The type of a
// field is read from its check (its zod schema: lengths, ranges, options, lists, objects,
// defaults); where a check cannot show it, the piece that builds it says it (see ofType).
//
// The checks stay zod 3's: zod 4 (`zod/v4`, with .meta() and z.toJSONSchema) would have every
// message rewritten in another API, and its JSON schema of a transform (an id, optional text) is
// `{}` all the same; reading the zod 3 checks gives the schema the same facts, messages untouched.

import { z } from "zod";
import { adoptIdInput, configurationFields, creationOnlyInputs, strictObject } from "./inputs";
import { type NestedField, ofType, statedType, type ValueType } from "./value-types";
import type { Wire } from "./wire";

/** An input field: its check, what users read of it, and how a change takes effect. */
export interface InputField<Check extends z.ZodTypeAny = z.ZodTypeAny> {
  check: Check;
  description: string;
  /** A change creates a new object and deletes the old one. */
  replaceOnChanges?: boolean;
  /** A change replaces the object unless this holds of the held and wanted values (options appended at the end): then it is made in place. */
  replaceUnless?: InPlaceChange;
  /** The output is null, not absent, when the input is unset. */
  nullWhenUnset?: boolean;
  /** The registered resource (its name, e.g. `account`) whose id the input holds: `pulumi-crm export` writes it as a reference. */
  refersTo?: string;
  /** Its form in the service's requests and answers (see ./wire.ts). */
  wire?: Wire;
  /** Encrypted in state and hidden in plans whatever the program gave (a password): both doors mark the input and its output secret. */
  secret?: boolean;
}

/** Whether a change of a field from the held value to the wanted one can be made in place. */
export type InPlaceChange = (held: unknown, wanted: unknown) => boolean;

/** A field only the provider sets. */
export interface OutputField {
  type: ValueType;
  description: string;
  secret?: boolean;
  /** Absent (optional) or null (nullable) when there is nothing to tell; by default always there. */
  unset?: "optional" | "nullable";
  /** Its form in the service's answers (see ./wire.ts). */
  wire?: Wire;
}

export const input = <Check extends z.ZodTypeAny>(
  check: Check,
  description: string,
  options: Omit<InputField, "check" | "description"> = {},
): InputField<Check> => ({
  check,
  description,
  ...options,
});

export const output = (type: ValueType, description: string, options: Omit<OutputField, "type" | "description"> = {}): OutputField => ({
  type,
  description,
  ...options,
});

/** A field of a resource, every role and fact resolved from its declaration. */
export interface Field {
  name: string;
  /** `both`: an input the outputs give back; `input`: read at creation or by check only; `output`: set by the provider. */
  role: "input" | "output" | "both";
  type: ValueType;
  description: string;
  /** An input that must be given; for an output, always there. */
  required: boolean;
  /** What check gives an input left unset. */
  default?: unknown;
  /** For an input only read once: at creation (adoption) or by check. */
  readAt?: "creation" | "check";
  /** Every change replaces the object (the package schema says so, and the engine forces it). */
  replaceOnChanges: boolean;
  /** Some changes replace the object: those this rule does not allow in place. */
  replaceUnless?: InPlaceChange;
  secret: boolean;
  /** An output that is null when unset. */
  nullable: boolean;
  /** Its form in the service's requests and answers, if the declaration gives it. */
  wire?: Wire;
}

type Namespace = "crm" | "chat";

export interface ResourceDeclaration<Inputs extends Record<string, InputField>> {
  namespace: Namespace;
  /** The class's name, e.g. `CalendarFeed`. */
  name: string;
  /** e.g. `crm.CalendarFeed`, as messages name it. */
  type: string;
  /** The package schema's token, e.g. `crm:index:CalendarFeed`. */
  token: string;
  /** The type its dynamic resource has in deployed stacks (pulumi.dynamic.Resource's module and type). */
  dynamicType: string;
  /** What check parses: the inputs' checks in a strict object. */
  inputSchema: z.ZodObject<{ [Name in keyof Inputs]: Inputs[Name]["check"] }, "strict">;
  fields: readonly Field[];
  /** Every output's name: the class hands each to the resource so that it becomes an output whether set or not. */
  outputs: readonly string[];
  secretOutputs: string[];
  replaceOnChanges: readonly string[];
  /** The inputs some of whose changes replace the object, and the rule telling those made in place. */
  replaceUnless: Readonly<Record<string, InPlaceChange>>;
  /** The inputs holding another resource's id, and that resource's registered name (see ExportDeclaration.refersTo). */
  refersTo: Readonly<Record<string, string>>;
}

/** Any resource's declaration, as the registry and the generators see it. */
export type AnyResourceDeclaration = Omit<ResourceDeclaration<Record<string, InputField>>, "inputSchema"> & { inputSchema: z.AnyZodObject };

/**
 * A resource's declaration: its inputs (each an output too unless it is read only at
 * creation or by check, see configurationFields) and the outputs only the provider sets.
 */
export function declareResource<Inputs extends Record<string, InputField>>(spec: {
  namespace: Namespace;
  name: string;
  inputs: Inputs;
  outputs?: Record<string, OutputField>;
}): ResourceDeclaration<Inputs> {
  const checks = Object.fromEntries(Object.entries(spec.inputs).map(([name, field]) => [name, field.check])) as {
    [Name in keyof Inputs]: Inputs[Name]["check"];
  };
  const inputSchema = strictObject(checks);
  const configuration = configurationFields(inputSchema);
  const fields: Field[] = [
    ...Object.entries(spec.inputs).map(([name, field]): Field => {
      const read = readCheck(field.check);
      const readAt = configuration.includes(name) ? undefined : creationOnlyInputs.includes(name) ? "creation" : "check";
      return {
        name,
        role: readAt ? "input" : "both",
        type: read.type,
        description: field.description,
        required: read.required,
        ...(read.default === undefined ? {} : { default: read.default }),
        ...(readAt ? { readAt } : {}),
        replaceOnChanges: field.replaceOnChanges ?? false,
        ...(field.replaceUnless ? { replaceUnless: field.replaceUnless } : {}),
        secret: field.secret ?? false,
        nullable: field.nullWhenUnset ?? false,
        ...(field.wire ? { wire: field.wire } : {}),
      };
    }),
    ...Object.entries(spec.outputs ?? {}).map(
      ([name, field]): Field => ({
        name,
        role: "output",
        type: field.type,
        description: field.description,
        required: field.unset === undefined,
        replaceOnChanges: false,
        secret: field.secret ?? false,
        nullable: field.unset === "nullable",
        ...(field.wire ? { wire: field.wire } : {}),
      }),
    ),
  ];
  const outputs = fields.filter((field) => field.role !== "input").map((field) => field.name);
  return {
    namespace: spec.namespace,
    name: spec.name,
    type: `${spec.namespace}.${spec.name}`,
    token: `${spec.namespace}:index:${spec.name}`,
    dynamicType: `pulumi-nodejs:dynamic/${spec.namespace}:${spec.name}`,
    inputSchema,
    fields,
    outputs,
    secretOutputs: fields.filter((field) => field.secret).map((field) => field.name),
    replaceOnChanges: fields.filter((field) => field.replaceOnChanges).map((field) => field.name),
    replaceUnless: Object.fromEntries(fields.flatMap((field) => (field.replaceUnless ? [[field.name, field.replaceUnless]] : []))),
    refersTo: Object.fromEntries(Object.entries(spec.inputs).flatMap(([name, field]) => (field.refersTo ? [[name, field.refersTo]] : []))),
  };
}

/** `adoptId` (see adoptIdInput), described for one resource: `object` names what it takes over, `declared` what a take-over sets. */
export const takeOverById = (object: string, declared: string, idCheck: z.ZodTypeAny = adoptIdInput) =>
  input(idCheck, `The id of an existing ${object} to take over instead of creating one, as \`pulumi-crm export\` writes it: ${declared}.`);

/**
 * An object type of inputs, e.g. one contact of a list: its members' checks in a strict
 * object (`what` names it in messages), marked with the type the schema and the types name.
 */
export function inputObject<Members extends Record<string, InputField>>(name: string, description: string, members: Members, what: string) {
  const checks = Object.fromEntries(Object.entries(members).map(([member, field]) => [member, field.check])) as {
    [Name in keyof Members]: Members[Name]["check"];
  };
  const check = strictObject(checks, what);
  const fields = Object.fromEntries(
    Object.entries(members).map(([member, field]): [string, NestedField] => {
      const read = readCheck(field.check);
      return [member, { type: read.type, required: read.required, description: field.description }];
    }),
  );
  return ofType(check, { kind: "object", name, description, fields });
}

/** An object type of outputs only, e.g. a row a sync skipped. */
export const outputObject = (name: string, description: string, members: Record<string, OutputField>): ValueType => ({
  kind: "object",
  name,
  description,
  fields: Object.fromEntries(
    Object.entries(members).map(([member, field]) => [member, { type: field.type, required: field.unset === undefined, description: field.description }]),
  ),
});

/** What a check takes, read from its zod schema: the type, whether a value must be given, and the default it fills in. */
export function readCheck(check: z.ZodTypeAny): { type: ValueType; required: boolean; default?: unknown } {
  const unset = check.safeParse(undefined);
  const filled = unset.success ? unset.data : undefined;
  return { type: typeOf(check), required: !unset.success, ...(filled === undefined || filled === null ? {} : { default: filled }) };
}

function typeOf(check: z.ZodTypeAny): ValueType {
  const stated = statedType(check);
  if (stated) return stated;
  const def = check._def;
  if (check instanceof z.ZodOptional || check instanceof z.ZodNullable || check instanceof z.ZodDefault) return typeOf(def.innerType);
  if (check instanceof z.ZodEffects) return typeOf(def.schema);
  if (check instanceof z.ZodPipeline) return pipedType(typeOf(def.in), typeOf(def.out));
  if (check instanceof z.ZodString) return stringType(check);
  if (check instanceof z.ZodNumber) return numberType(check);
  if (check instanceof z.ZodBoolean) return { kind: "boolean" };
  if (check instanceof z.ZodEnum) return { kind: "enum", values: def.values };
  if (check instanceof z.ZodArray) return { kind: "list", items: typeOf(def.type), ...(def.minLength ? { minItems: def.minLength.value } : {}) };
  if (check instanceof z.ZodRecord) return { kind: "map", values: typeOf(def.valueType) };
  if (check instanceof z.ZodUnion) return { kind: "union", members: (def.options as z.ZodTypeAny[]).map(typeOf) };
  if (check instanceof z.ZodUnknown || check instanceof z.ZodAny) return { kind: "any" };
  throw new Error(`the declaration kit cannot read the type of a ${def.typeName} check: mark it with ofType`);
}

/** A pipe's type: what it ends as, with the limits of both ends (givenText: a given string, then its rules). */
function pipedType(into: ValueType, out: ValueType): ValueType {
  return into.kind === "string" && out.kind === "string" ? { ...into, ...out } : out;
}

function stringType(check: z.ZodString): ValueType {
  const type: Extract<ValueType, { kind: "string" }> = { kind: "string" };
  for (const rule of check._def.checks) {
    if (rule.kind === "min") type.minLength = rule.value;
    if (rule.kind === "max") type.maxLength = rule.value;
    if (rule.kind === "email" || rule.kind === "url" || rule.kind === "uuid") type.format = rule.kind;
  }
  return type;
}

function numberType(check: z.ZodNumber): ValueType {
  const integer = check._def.checks.some((rule) => rule.kind === "int");
  const type: Extract<ValueType, { kind: "integer" | "number" }> = { kind: integer ? "integer" : "number" };
  for (const rule of check._def.checks) {
    if (rule.kind === "min") type.minimum = rule.value;
    if (rule.kind === "max") type.maximum = rule.value;
  }
  return type;
}
