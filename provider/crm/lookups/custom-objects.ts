// Custom objects: their schemas, and queries of a schema's records in the service's
// extended syntax (filters on a root property, a field or a relationship; orders on a
// property or a field), typed here and checked before any request.

import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { oneOf, strictObject } from "../../kit/inputs";
import { ServiceError } from "../../transport/errors";
import { walk } from "../service/collection";
import { numberOf, textOf, timestampOf } from "../service/normalize";
import { type LookupOptions, type LookupOutputOptions, notFound, outputForm, startLookup } from "./kit";
import { sharedWalk } from "./shared-walks";

/** What the service's pages call a kind of custom object, a field or a relationship. */
export interface CustomObjectLabels {
  /** The name of one. */
  singular: string;
  /** The name of several. */
  plural: string;
}

/** A field of a custom object schema. */
export interface CustomObjectField {
  /** What records and queries name it by (`fields.<id>`), as a crm.CustomObjectSchema's field `id`. */
  id: string;
  /** What the service's pages call the field. */
  labels: CustomObjectLabels;
  /** e.g. text, textarea, number, date, dropdown. */
  type: string;
  /** Whether every record must have a value. */
  required: boolean;
  /** Decimal places of a number field; null when not given. */
  scale: number | null;
  /** The choices of a dropdown or multiselect field, as a crm.CustomObjectSchema declares them; null for other types. */
  options: string[] | null;
}

/** A relationship of a custom object schema to other objects. */
export interface CustomObjectRelationship {
  /** What records and queries name it by (`relationships.<id>`). */
  id: string;
  /** What the service's pages call the relationship. */
  labels: CustomObjectLabels;
  /** What the relationship is for; null when unset. */
  description: string | null;
  /** The kind of object related, e.g. contacts, accounts, deals. */
  namespace: string;
  /** Whether a record may relate to several objects. */
  hasMany: boolean;
}

/** A custom object schema: the definition of a kind of custom object, as a crm.CustomObjectSchema manages it. */
export interface CustomObjectSchemaInfo {
  /** The schema's id: what getCustomObjectRecords takes as schemaId, and a crm.CustomObjectSchema's `id`. */
  id: string;
  /** The schema's name in the service's addresses. */
  slug: string;
  /** Who sees the schema's records, as the service says it; null when unset. */
  visibility: string | null;
  /** What the service's pages call the kind of object. */
  labels: CustomObjectLabels;
  /** What the kind of object is for; null when unset. */
  description: string | null;
  /** When it was created, ISO 8601. */
  createdTimestamp: string | null;
  /** When it was last changed, ISO 8601. */
  updatedTimestamp: string | null;
  /** The fields its records have. */
  fields: CustomObjectField[];
  /** Its relationships to other objects. */
  relationships: CustomObjectRelationship[];
}

/** A record of a custom object schema. */
export interface CustomObjectRecord {
  /** The record's id. */
  id: string;
  /** The record's id in another system; null when unset. */
  externalId: string | null;
  /** The id of the record's schema. */
  schemaId: string;
  /** Field values by field id, as the service holds them. */
  fields: Record<string, unknown>;
  /** Ids of the related objects, by relationship id. */
  relationships: Record<string, string[]>;
  /** When it was created, ISO 8601. */
  createdTimestamp: string | null;
  /** When it was last changed, ISO 8601. */
  updatedTimestamp: string | null;
}

export interface GetCustomObjectSchemasResult {
  /** The account's custom object schemas. */
  schemas: CustomObjectSchemaInfo[];
}

/** What a filter or an order is on: exactly one of a root property of the record, one of its fields, or one of its relationships. */
export type CustomObjectTarget =
  | {
      /** A root property of the record, e.g. createdTimestamp. */
      property: string;
      field?: never;
      relationship?: never;
    }
  | {
      /** The id of one of the record's fields. */
      field: string;
      property?: never;
      relationship?: never;
    }
  | {
      /** The id of one of the record's relationships. */
      relationship: string;
      property?: never;
      field?: never;
    };

/**
 * One condition; conditions are combined with AND. `op` defaults to eq; `contains`
 * takes `*` as a wildcard; `in` takes a list; `blank` (no value) and `not_blank`
 * (a value) take none.
 */
export type CustomObjectFilter = CustomObjectTarget &
  (
    | {
        /** The comparison: eq (the default), lt, lte, gt, gte, contains, in, blank or not_blank. */
        op?: "eq" | "lt" | "lte" | "gt" | "gte" | "contains";
        /** What is compared with: a string or a number; a list for in; none for blank and not_blank. */
        value: string | number;
      }
    | { op: "in"; value: Array<string | number> }
    | { op: "blank" | "not_blank"; value?: never }
  );

/** One sort key, applied in the order given: a root property (e.g. createdTimestamp) or a field. */
export type CustomObjectOrder = (
  | {
      /** A root property of the record, e.g. createdTimestamp. */
      property: string;
      field?: never;
    }
  | {
      /** The id of one of the record's fields. */
      field: string;
      property?: never;
    }
) & {
  /** ASC or DESC. */
  direction: "ASC" | "DESC";
};

export interface GetCustomObjectRecordsArgs {
  /** The schema whose records are queried. */
  schemaId: string;
  /** Conditions the records meet, all of them. */
  filters?: CustomObjectFilter[];
  /** Sort keys, applied in the order given. */
  orders?: CustomObjectOrder[];
  /** At most this many records, the first ones in the order asked. */
  limit?: number;
}

export interface GetCustomObjectRecordsResult {
  /** The records found. */
  records: CustomObjectRecord[];
}

const operators: ["eq", "lt", "lte", "gt", "gte", "contains", "in", "blank", "not_blank"] = [
  "eq",
  "lt",
  "lte",
  "gt",
  "gte",
  "contains",
  "in",
  "blank",
  "not_blank",
];
const withoutValue = new Set(["blank", "not_blank"]);

// Names go inside filters[...] and orders[...]: brackets would break the key.
const targetName = z
  .string({ invalid_type_error: "must be a string" })
  .min(1, "must not be empty")
  .regex(/^[^[\]]+$/, "must not contain [ or ]");
const scalar = z.union([z.string(), z.number()], { errorMap: () => ({ message: "must be a string or a number" }) });

const filterSchema = strictObject(
  {
    property: targetName.optional(),
    field: targetName.optional(),
    relationship: targetName.optional(),
    op: oneOf(operators).optional(),
    value: z.union([scalar, z.array(scalar)], { errorMap: () => ({ message: "must be a string, a number or, for in, a list of them" }) }).optional(),
  },
  "a filter",
).superRefine((filter, context) => {
  const problem = (path: string, message: string) => context.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
  const targets = [filter.property, filter.field, filter.relationship].filter((target) => target !== undefined);
  if (targets.length !== 1) problem("property", "exactly one of property, field or relationship must be given");
  const op = filter.op ?? "eq";
  if (withoutValue.has(op)) {
    if (filter.value !== undefined) problem("value", `must not be given for ${op}`);
  } else if (op === "in") {
    if (!Array.isArray(filter.value) || filter.value.length === 0) problem("value", "must be a list of at least one value for in");
    else if (filter.value.some((item) => String(item).includes(",")))
      problem("value", "must not hold commas for in: the service separates the values with them");
  } else if (filter.value === undefined || Array.isArray(filter.value)) {
    problem("value", `must be one string or number for ${op}`);
  }
});

const orderSchema = strictObject({ property: targetName.optional(), field: targetName.optional(), direction: oneOf(["ASC", "DESC"]) }, "an order").refine(
  (order) => (order.property === undefined) !== (order.field === undefined),
  {
    message: "exactly one of property or field must be given",
    path: ["property"],
  },
);

const recordsArgs = strictObject(
  {
    schemaId: z.string({ required_error: "is required: the id of the schema", invalid_type_error: "must be a string" }).min(1, "must not be empty"),
    filters: z.array(filterSchema, { invalid_type_error: "must be a list of filters" }).optional(),
    orders: z.array(orderSchema, { invalid_type_error: "must be a list of orders" }).optional(),
    limit: z.number({ invalid_type_error: "must be a number" }).int("must be a whole number").positive("must be at least 1").optional(),
  },
  "the arguments of getCustomObjectRecords",
);

type QueryValue = string | string[];

/** The service's query for filters and orders: filters[<path>][<op>]=<value> and orders[<path>]=<direction>, in the order given. */
function recordsQuery(filters: Array<z.output<typeof filterSchema>>, orders: Array<z.output<typeof orderSchema>>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  // Two conditions may share a key (two contains on one field): the key is then repeated.
  const add = (key: string, value: string) => {
    const present = query[key];
    query[key] = present === undefined ? value : [...(Array.isArray(present) ? present : [present]), value];
  };
  for (const filter of filters) {
    const path = filter.property ?? (filter.field !== undefined ? `fields.${filter.field}` : `relationships.${filter.relationship}`);
    const op = filter.op ?? "eq";
    add(`filters[${path}][${op}]`, Array.isArray(filter.value) ? filter.value.join(",") : String(filter.value ?? ""));
  }
  for (const order of orders) add(`orders[${order.property ?? `fields.${order.field}`}]`, order.direction);
  return query;
}

const labelsOf = (value: unknown): CustomObjectLabels => {
  const labels = (value ?? {}) as Record<string, unknown>;
  return { singular: String(labels.singular ?? ""), plural: String(labels.plural ?? "") };
};
const listOf = (value: unknown) => (Array.isArray(value) ? (value as Array<Record<string, unknown>>) : []);

function schemaOf(schema: Record<string, unknown>): CustomObjectSchemaInfo {
  return {
    id: String(schema.id),
    slug: String(schema.slug ?? ""),
    visibility: textOf(schema.visibility),
    labels: labelsOf(schema.labels),
    description: textOf(schema.description),
    createdTimestamp: timestampOf(schema.createdTimestamp),
    updatedTimestamp: timestampOf(schema.updatedTimestamp),
    fields: listOf(schema.fields).map((field) => ({
      id: String(field.id),
      labels: labelsOf(field.labels),
      type: String(field.type ?? ""),
      required: field.required === true || field.isRequired === true,
      scale: numberOf(field.scale),
      options: Array.isArray(field.options)
        ? field.options.map((option) => String(typeof option === "object" && option !== null ? (option as { value?: unknown }).value : option))
        : null,
    })),
    relationships: listOf(schema.relationships).map((relationship) => ({
      id: String(relationship.id),
      labels: labelsOf(relationship.labels),
      description: textOf(relationship.description),
      namespace: String(relationship.namespace ?? ""),
      hasMany: relationship.hasMany === true,
    })),
  };
}

function recordOf(record: Record<string, unknown>): CustomObjectRecord {
  const relationships = (record.relationships ?? {}) as Record<string, unknown>;
  return {
    id: String(record.id),
    externalId: textOf(record.externalId),
    schemaId: String(record.schemaId),
    fields: Object.fromEntries(listOf(record.fields).map((field) => [String(field.id), field.value ?? null])),
    relationships: Object.fromEntries(Object.entries(relationships).map(([name, ids]) => [name, (Array.isArray(ids) ? ids : [ids]).map(String)])),
    createdTimestamp: timestampOf(record.createdTimestamp),
    updatedTimestamp: timestampOf(record.updatedTimestamp),
  };
}

/** Every custom object schema of the account. */
export async function getCustomObjectSchemas(opts?: LookupOptions): Promise<GetCustomObjectSchemasResult> {
  const lookup = startLookup("getCustomObjectSchemas", z.object({}), {}, opts);
  const schemas = await sharedWalk<Record<string, unknown>>(lookup, "/customObjects/schemas", "schemas", "the service cannot narrow this list");
  return { schemas: schemas.map(schemaOf) };
}

/** The records of one custom object schema that match every filter, in the order asked, at most `limit` of them. */
export async function getCustomObjectRecords(args: GetCustomObjectRecordsArgs, opts?: LookupOptions): Promise<GetCustomObjectRecordsResult> {
  const lookup = startLookup("getCustomObjectRecords", recordsArgs, args, opts);
  const { client, args: query } = lookup;
  if (query.limit !== undefined && query.limit > lookup.maxRecords) {
    throw new ServiceError(`${client.resource}: limit must be at most maxRecords (${lookup.maxRecords}); raise maxRecords in the lookup's options.`, {
      code: "invalid_argument",
      field: "limit",
    });
  }
  let read = 0;
  // A limit ends the walk once that many records are read; the bound guards a walk without one.
  const enough = query.limit === undefined ? undefined : () => ++read >= query.limit!;
  const bound = query.limit === undefined ? lookup.bound("add filters or a limit") : undefined;
  const path = `/customObjects/records/${encodeURIComponent(query.schemaId)}`;
  const records = await walk<Record<string, unknown>>(client, path, "records", recordsQuery(query.filters ?? [], query.orders ?? []), enough, bound).catch(
    (error: unknown) => {
      throw error instanceof ServiceError && error.status === 404 ? notFound(client.resource, "custom object schema", { id: query.schemaId }) : error;
    },
  );
  return { records: records.slice(0, query.limit).map(recordOf) };
}

// The Output form takes arguments first; the schemas lookup takes none.
const schemasOutput = outputForm((_none: Record<string, never>, opts?: LookupOptions) => getCustomObjectSchemas(opts), "getCustomObjectSchemas");

/** getCustomObjectSchemas as an Output. */
export function getCustomObjectSchemasOutput(opts?: LookupOutputOptions): pulumi.Output<GetCustomObjectSchemasResult> {
  return schemasOutput({}, opts);
}

/** getCustomObjectRecords taking Outputs: the result is an Output. */
export const getCustomObjectRecordsOutput = outputForm(getCustomObjectRecords);
