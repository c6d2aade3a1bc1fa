// crm.CustomObjectSchema: the definition of a kind of custom object (the service's schema at
// /customObjects/schemas): its slug, labels, description, fields and relationships to contacts,
// accounts or deals. The service's PUT takes every one of them, so nothing replaces a schema:
// a replacement would delete every record of it. What the service cannot do in place is
// refused before anything is written, naming the way out: a field's type changed, a relationship
// removed or pointed elsewhere. A field the program no longer declares is deleted (the field's
// own DELETE, irreversible: its values on every record go) only with `deleteRemovedFields`;
// without it the update is refused. Its declaration, those rules and the deletes; the rest is
// plainKind's (see ../crud/plain-kind.ts).

import { z } from "zod";
import { plainKind } from "../crud/plain-kind";
import { input, inputObject } from "../../kit/declaration";
import { checkOnly, oneOf, optionalText, requiredText } from "../../kit/inputs";
import { ServiceError } from "../../transport/errors";
import type { CrmClient } from "../service/client";
import { deleteObject, getObject } from "../service/collection";
import { numberOf, optionalTextOf } from "../service/normalize";
import * as wire from "../service/wire-forms";

export type {
  CustomObjectSchemaArgs,
  CustomObjectSchemaField,
  CustomObjectSchemaLabels,
  CustomObjectSchemaOutputs,
  CustomObjectSchemaRelationship,
} from "../generated-types";

const fieldTypes = ["text", "textarea", "number", "decimal", "currency", "date", "datetime", "dropdown", "multiselect"] as const;
/** Types whose values have decimal places (`scale`), and types whose values are chosen among `options`. */
const scaled = new Set<string>(["number", "decimal"]);
const chosen = new Set<string>(["dropdown", "multiselect"]);
const namespaces = ["contacts", "accounts", "deals"] as const;

/** A slug, in the form of the reference's (`my-object`, `my-number-field`). */
const givenSlug = (what: string) =>
  requiredText(what, 100).refine(
    (slug) => slug.trim() === "" || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug),
    "must be lower-case letters and digits, words joined by dashes, such as my-object",
  );
/** The id records and queries name a field or relationship by (`fields.<id>`): a slug. */
const memberId = (what: string) => givenSlug(`the ${what}'s id`);

const labels = (what: string) =>
  inputObject(
    "CustomObjectSchemaLabels",
    "What the service's pages call it: one, and several.",
    {
      singular: input(requiredText(`the ${what}'s singular label`, 255), "The name of one."),
      plural: input(requiredText(`the ${what}'s plural label`, 255), "The name of several."),
    },
    `the ${what}'s labels`,
  );
const flag = z.boolean({ invalid_type_error: "must be true or false" }).default(false);

const field = inputObject(
  "CustomObjectSchemaField",
  "A field of the schema's records.",
  {
    id: input(
      memberId("field"),
      "What records and queries name the field by (`fields.<id>`), as getCustomObjectSchemas and getCustomObjectRecords give it. A new id adds a field.",
    ),
    labels: input(labels("field"), "What the service's pages call the field."),
    type: input(
      oneOf([...fieldTypes]),
      `The type of its values: ${fieldTypes.join(", ")}. The service keeps values of the type they were written in: a change is refused (give the field a new id instead).`,
    ),
    required: input(flag, "Whether every record must have a value."),
    scale: input(
      z.number({ invalid_type_error: "must be a whole number from 0" }).int("must be a whole number from 0").min(0, "must be a whole number from 0").optional(),
      "Decimal places of a number or decimal field (unset: 0); only for those types.",
    ),
    options: input(
      z.array(requiredText("an option", 255), { invalid_type_error: "must be a list of texts" }).min(1, "must hold at least one option").optional(),
      "The choices of a dropdown or multiselect field, in the order shown; required for those types, refused for others.",
    ),
  },
  "a field",
).transform((given, context) => {
  const refuse = (member: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [member], message });
  if (given.scale !== undefined && !scaled.has(given.type)) refuse("scale", `is only for number and decimal fields, not ${given.type}`);
  if (given.options === undefined && chosen.has(given.type)) refuse("options", `is required for a ${given.type} field: its choices`);
  if (given.options !== undefined && !chosen.has(given.type)) refuse("options", `is only for dropdown and multiselect fields, not ${given.type}`);
  return { ...given, ...(scaled.has(given.type) ? { scale: given.scale ?? 0 } : {}) };
});

const relationship = inputObject(
  "CustomObjectSchemaRelationship",
  "A relationship of the schema's records to objects of another kind.",
  {
    id: input(memberId("relationship"), "What records and queries name the relationship by (`relationships.<id>`)."),
    labels: input(labels("relationship"), "What the service's pages call the relationship."),
    description: input(optionalText(1000), "What the relationship is for."),
    namespace: input(oneOf([...namespaces]), `The kind of object related: ${namespaces.join(", ")}. The service cannot change it: a change is refused.`),
    hasMany: input(flag, "Whether a record may relate to several objects. The service cannot change it: a change is refused."),
  },
  "a relationship",
);

/** A list of members, each id once, kept sorted by id: the service's order is not the program's. */
const byId = <Item extends z.ZodTypeAny>(member: Item, what: string) =>
  z
    .array(member, { invalid_type_error: `must be a list of ${what}s` })
    .default([])
    .superRefine((members, context) => {
      const ids = members.map((one: { id: string }) => one.id);
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
      if (repeated.length)
        context.addIssue({ code: z.ZodIssueCode.custom, message: `must name each ${what} once: ${[...new Set(repeated)].join(", ")} given twice` });
    })
    .transform((members) => sortedById([...members] as Array<z.output<Item> & { id: string }>));

type Member = Record<string, unknown> & { id: string };
type Labels = { singular: string; plural: string };
/** A field and a relationship as the check gives them and the state holds them. */
type Field = z.output<typeof field>;
type Relationship = z.output<typeof relationship>;
/** The normalized inputs the rules below read. */
interface Declared {
  fields: Field[];
  relationships: Relationship[];
  deleteRemovedFields: boolean;
}
const listed = (value: unknown) => (Array.isArray(value) ? (value as Member[]) : []);
const labelsOf = (value: unknown): Labels => {
  const { singular, plural } = (value ?? {}) as Record<string, unknown>;
  return { singular: String(singular ?? ""), plural: String(plural ?? "") };
};
function sortedById<T extends { id: string }>(members: T[]): T[] {
  return members.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A field as the state holds it: what the service adds (option ids, a scale on every type, fields marked for deletion) left out. */
const fieldOf = (answered: Member) => {
  const type = String(answered.type);
  const options = listed(answered.options).map((option) => String(typeof option === "object" ? option.value : option));
  return {
    id: String(answered.id),
    labels: labelsOf(answered.labels),
    type,
    required: answered.required === true || answered.isRequired === true,
    ...(scaled.has(type) ? { scale: numberOf(answered.scale) ?? 0 } : {}),
    ...(chosen.has(type) ? { options } : {}),
  } as Field;
};
const relationshipOf = (answered: Member): Relationship => {
  const description = optionalTextOf(answered.description);
  return {
    id: String(answered.id),
    labels: labelsOf(answered.labels),
    ...(description ? { description } : {}),
    namespace: String(answered.namespace),
    hasMany: answered.hasMany === true,
  } as Relationship;
};

/** The service's `showFields` hides a deleted field unless asked; one answered all the same is gone. */
const liveFields = (value: unknown) => listed(value).filter((one) => one.status !== "marked_for_deletion");

/** Refuses, before any request, an update the service cannot make or that would lose data unasked (see the file's head). */
function refuseLosses(resource: string, olds: Record<string, unknown>, inputs: Declared): void {
  const heldFields = (olds.fields ?? []) as Field[];
  const heldRelationships = (olds.relationships ?? []) as Relationship[];
  const fields = new Map(inputs.fields.map((one) => [one.id, one]));
  const relationships = new Map(inputs.relationships.map((one) => [one.id, one]));
  const refuse = (field: string, message: string) => {
    throw new ServiceError(`${resource}: ${message}`, { code: "invalid_argument", field });
  };
  for (const held of heldFields) {
    const declared = fields.get(held.id);
    if (declared && declared.type !== held.type) {
      refuse(
        "fields",
        `the field ${held.id} is of type ${held.type}, and the service keeps its records' values in that type: it cannot become ${declared.type}. Declare it as ${held.type}, or give the new field another id (and remove this one with deleteRemovedFields: true).`,
      );
    }
  }
  const removed = heldFields.filter((held) => !fields.has(held.id)).map((held) => held.id);
  if (removed.length && !inputs.deleteRemovedFields) {
    refuse(
      "fields",
      `the schema holds the field${removed.length > 1 ? "s" : ""} ${removed.join(", ")}, no longer declared; deleting a field deletes its value on every record, irreversibly. Declare it again, or set deleteRemovedFields: true to delete it.`,
    );
  }
  for (const held of heldRelationships) {
    const declared = relationships.get(held.id);
    if (!declared)
      refuse(
        "relationships",
        `the schema holds the relationship ${held.id}, no longer declared, and the service cannot remove a relationship: declare it again.`,
      );
    else if (declared.namespace !== held.namespace || declared.hasMany !== held.hasMany) {
      refuse(
        "relationships",
        `the relationship ${held.id} relates ${held.hasMany ? "many" : "one"} of ${held.namespace}, which the service cannot change: declare it so, or add a relationship of another id.`,
      );
    }
  }
}

/** The fields the schema holds and the inputs no longer declare: deleted once refuseLosses let the update through. */
async function deleteRemovedFields(client: CrmClient, id: string, held: Record<string, unknown>, inputs: Declared): Promise<void> {
  const declared = new Set(inputs.fields.map((one) => one.id));
  for (const field of (held.fields ?? []) as Field[]) {
    if (!declared.has(field.id)) await deleteObject(client, `/customObjects/schemas/${id}/fields/${encodeURIComponent(field.id)}`);
  }
}

// Sent as the create's request declares them: a field's `required` as isRequired, options as {value}.
const sendField = (given: Field) => {
  const { required, options, ...rest } = given;
  return { ...rest, isRequired: required, ...(options ? { options: options.map((value) => ({ value })) } : {}) };
};

export const customObjectSchema = plainKind({
  description: "The definition of a kind of custom object: its fields and relationships.",
  name: "CustomObjectSchema",
  noun: "schema",
  path: "/customObjects/schemas",
  adoptIdCheck: z
    .string({ invalid_type_error: "must be the id of an existing custom object schema, such as its `id` output" })
    .uuid("must be the id of an existing custom object schema: a UUID, such as its `id` output")
    .optional(),
  namedBy: "slug",
  inputs: {
    slug: input(
      givenSlug("the schema's slug"),
      "The schema's name in the service's addresses, unique in the account. A change renames the schema in place (the service's update takes it).",
      {
        wire: wire.text(),
      },
    ),
    labels: input(labels("schema"), "What the service's pages call the kind of object.", { wire: { read: labelsOf } }),
    description: input(optionalText(1000), 'What the kind of object is for. Removing it, or setting it to "", clears it.', { wire: wire.optionalText() }),
    fields: input(
      byId(field, "field"),
      "The fields of the schema's records, kept sorted by id. A field no longer declared is deleted only with `deleteRemovedFields`.",
      {
        wire: { read: (value) => sortedById(liveFields(value).map(fieldOf)), send: (given) => (given as Field[]).map(sendField) },
      },
    ),
    relationships: input(
      byId(relationship, "relationship"),
      "The schema's relationships to contacts, accounts or deals, kept sorted by id. One may be added or relabelled, never removed: the service cannot.",
      {
        wire: { read: (value) => sortedById(listed(value).map(relationshipOf)) },
      },
    ),
    deleteRemovedFields: input(
      checkOnly(z.boolean({ invalid_type_error: "must be true or false" }).default(false)),
      "Whether an update deletes a field the program no longer declares, and with it its value on every record (irreversible). False (the default): such an update is refused, naming the fields, before anything is written. Never a change or drift itself.",
    ),
  },
  kind: (forms) => {
    // An update is held to the schema as the service holds it, not only as the state last saw it:
    // a field added outside the program is named by the refusal, and deleted with deleteRemovedFields.
    const held = async (client: CrmClient, id: string, olds: Record<string, unknown>) => {
      const schema = await getObject(client, `/customObjects/schemas/${id}`, "schema");
      return schema ? forms.stateOf(schema) : olds;
    };
    return {
      // A field's delete changes what the update's answer said: the schema is read back.
      readBackAfterWrite: true,
      prepareWrite: async (client, inputs, olds, id) => {
        if (olds && id) refuseLosses(client.resource, await held(client, id, olds), inputs as Declared);
        return inputs;
      },
      afterUpdate: async (client, id, olds, inputs) => {
        if ((inputs as Declared).deleteRemovedFields) await deleteRemovedFields(client, id, await held(client, id, olds), inputs as Declared);
      },
    };
  },
  created: { member: "createdTimestamp" },
  builtIns: { field: "slug", names: ["subscription", "support-ticket"], what: "the sample schemas a new account comes with" },
});
