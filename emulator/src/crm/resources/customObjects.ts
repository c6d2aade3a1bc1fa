import { randomUUID } from "node:crypto";
import { ApiError, attributesOf, isObject, ok, type Attributes, type CrmRequest } from "../api";
import { compareValues } from "../collections";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { Row, Table } from "../store";
import { crmModule, table } from "../module";

export interface SchemaRow extends Row {
  slug: string;
  visibility: string;
  labels: { singular: string; plural: string };
  description: string;
  createdTimestamp: string;
  updatedTimestamp: string;
  fields: SchemaField[];
  icons: { default: string };
  relationships: Array<{ id: string; labels: { singular: string; plural: string }; description: string; namespace: string; hasMany: boolean }>;
}

/** A field of a schema; a deleted one stays, marked, its id not yet free again (the reference's field DELETE). */
export interface SchemaField {
  id: string;
  labels: { singular: string; plural: string };
  type: string;
  required: boolean;
  scale?: number;
  options?: Array<{ id: string; value: string }>;
  status?: "marked_for_deletion";
}

export interface RecordRow extends Row {
  externalId: string | null;
  schemaId: string;
  fields: Array<{ id: string; value: unknown }>;
  relationships: Record<string, string[]>;
  createdTimestamp: string;
  updatedTimestamp: string;
}

export const customObjectsModule = crmModule({
  tables: { schemas: table<SchemaRow>(), records: table<RecordRow>() },
  routes: customObjectRoutes,
  seed: seedCustomObjects,
});

type Labels = { singular: string; plural: string };
type Operator = (value: unknown, operand: string) => boolean;

const NOT_FOUND = new ApiError({ status: 404, body: { message: "Not Found" } });
const BAD_REQUEST = new ApiError({ status: 400, body: { errors: [{ status: 400, title: "Bad Request" }] } });
const ICON = "https://static.example.com/custom-object.png";

/** A 422 in the custom-object style: the pointer sits in source.value. */
function invalid(field: string, detail: string): ApiError {
  return new ApiError({
    status: 422,
    body: {
      errors: [{ title: `Invalid value for field "${field}"`, detail, source: { type: "pointer", value: `/data/attributes/${field.replace(/\./g, "/")}` } }],
    },
  });
}

const isBlank = (value: unknown): boolean => value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** Comparison operators test each element of multi-value fields and relationships: any match passes. */
const anyOf =
  (test: (element: unknown, operand: string) => boolean): Operator =>
  (value, operand) =>
    (Array.isArray(value) ? value : [value]).some((element) => !isBlank(element) && test(element, operand));

const OPERATORS: Record<string, Operator> = {
  eq: anyOf((element, operand) => String(element) === operand),
  lt: anyOf((element, operand) => compareValues(element, operand) < 0),
  lte: anyOf((element, operand) => compareValues(element, operand) <= 0),
  gt: anyOf((element, operand) => compareValues(element, operand) > 0),
  gte: anyOf((element, operand) => compareValues(element, operand) >= 0),
  contains: anyOf((element, operand) => wildcardPattern(operand).test(String(element))),
  in: anyOf((element, operand) =>
    operand
      .split(",")
      .map((o) => o.trim())
      .includes(String(element)),
  ),
  blank: (value) => isBlank(value),
  not_blank: (value) => !isBlank(value),
};

/** "contains" with * as a wildcard: "ac*e" matches "Acme Inc". Case-insensitive. */
function wildcardPattern(operand: string): RegExp {
  const escaped = operand.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(escaped.join(".*"), "i");
}

/**
 * The value a filter or order path names: fields.<id> (a record field), relationships.<name>
 * (related ids), or a root property, dotted for nested ones (labels.singular); through a list,
 * each element's (a schema's relationships.id: the ids of its relationships).
 */
function valueAt(resource: SchemaRow | RecordRow, path: string): unknown {
  const [head, ...rest] = path.split(".");
  if ("schemaId" in resource && head === "fields") return resource.fields.find((f) => f.id === rest.join("."))?.value;
  if ("schemaId" in resource && head === "relationships") return resource.relationships[rest.join(".")];
  const member = (value: unknown, key: string): unknown =>
    Array.isArray(value) ? value.flatMap((element) => member(element, key) ?? []) : isObject(value) ? value[key] : undefined;
  return path.split(".").reduce<unknown>(member, resource);
}

/** Fields whose values are chosen from the schema's options. */
const CHOICE_TYPES = new Set(["dropdown", "multiselect"]);

/** A schema's fields but those deleted: a deleted field's data is unavailable at once (the reference's field DELETE). */
const liveFields = (schema: SchemaRow): SchemaField[] => schema.fields.filter((field) => field.status !== "marked_for_deletion");

/** A record's field values held to its schema: required fields given, a choice among the field's options. */
function checkAgainstSchema(schema: SchemaRow, fields: Array<{ id: string; value: unknown }>): void {
  for (const field of liveFields(schema)) {
    const value = fields.find((f) => f.id === field.id)?.value;
    if (field.required && isBlank(value)) throw invalid(field.id, `${field.id} is required.`);
    const outside = (Array.isArray(value) ? value : [value]).some(
      (choice) => !isBlank(choice) && !field.options?.some((option) => option.value === String(choice)),
    );
    if (CHOICE_TYPES.has(field.type) && field.options && outside)
      throw invalid(field.id, `${field.id} cannot accept a value that is not defined in the schema.`);
  }
}

/** filters[<path>][<operator>]=<value>, or filters[<path>]=<value> for eq; all must hold. */
function matchesFilters<T extends SchemaRow | RecordRow>(req: CrmRequest, rows: T[]): T[] {
  let selected = rows;
  for (const [key, operand] of req.query) {
    const filter = /^filters\[([^\]]+)\](?:\[([^\]]+)\])?$/.exec(key);
    if (!filter) continue;
    const operator = OPERATORS[filter[2] ?? "eq"];
    if (!operator) throw BAD_REQUEST;
    selected = selected.filter((row) => operator(valueAt(row, filter[1]), operand));
  }
  return selected;
}

function customObjectRoutes(crm: CrmContext): Route[] {
  const { schemas, records } = crm.tables;

  const listOptions = {
    totalAsNumber: true,
    orderValue: valueAt,
    meta: (page: { rows: unknown[]; limit: number; offset: number }) => ({ count: page.rows.length, limit: page.limit, offset: page.offset }),
  };
  // Deleted fields are shown only with showFields=all (the reference's GET and PUT).
  const schemaKind = crm.kinds.register<SchemaRow>({
    singular: "schema",
    plural: "schemas",
    present: (row, req) => ({ ...row, fields: req.query.get("showFields") === "all" ? row.fields : liveFields(row) }),
  });
  const recordKind = crm.kinds.register<RecordRow>({ singular: "record", plural: "records", present: (row) => ({ ...row }) });

  const findSchema = (id: string): SchemaRow => schemas.get(id) ?? throwError(NOT_FOUND);

  const labelsOf = (value: unknown, field: string): Labels => {
    if (!isObject(value) || typeof value.singular !== "string" || typeof value.plural !== "string" || !value.singular || !value.plural) {
      throw invalid(`${field}.labels`, "Labels must provide singular and plural names");
    }
    return { singular: value.singular, plural: value.plural };
  };

  /** A slug as the service takes it: its form, and unique in the account (`self`: the schema it already names). */
  const slugFrom = (slug: unknown, self?: SchemaRow): string => {
    if (typeof slug !== "string" || !/^[a-z0-9-]+$/.test(slug)) throw invalid("schema.slug", "Schema slug must be lowercase letters, digits and dashes");
    if (schemas.find((s) => s.slug === slug && s !== self)) throw invalid("schema.slug", "Schema slug must be unique");
    return slug;
  };

  /** A field of a create or update; an option keeps its id where `held` (the field as it was) has the option's value. */
  const fieldFrom = (field: unknown, held?: SchemaField): SchemaField => {
    if (!isObject(field) || typeof field.id !== "string" || typeof field.type !== "string")
      throw invalid("schema.fields", "Schema fields must provide an id and a type");
    // A choice field's options, as strings or {value}; the service gives each an id.
    const values = Array.isArray(field.options) ? field.options.map((option) => String(isObject(option) ? option.value : option)) : undefined;
    const options = values?.map((value) => held?.options?.find((option) => option.value === value) ?? { id: randomUUID(), value });
    return {
      id: field.id,
      labels: labelsOf(field.labels, "schema.fields"),
      type: field.type,
      required: field.required === true || field.isRequired === true,
      scale: typeof field.scale === "number" ? field.scale : 0,
      ...(options ? { options } : {}),
    };
  };

  const relationshipFrom = (relationship: unknown): SchemaRow["relationships"][number] => {
    if (!isObject(relationship) || typeof relationship.id !== "string" || typeof relationship.namespace !== "string") {
      throw invalid("schema.relationships", "Relationships must provide an id and a namespace");
    }
    return {
      id: relationship.id,
      labels: labelsOf(relationship.labels, "schema.relationships"),
      description: typeof relationship.description === "string" ? relationship.description : "",
      namespace: relationship.namespace,
      hasMany: relationship.hasMany === true,
    };
  };

  const listIn = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

  const schemaFrom = (attrs: Attributes, now: string): SchemaRow => ({
    id: randomUUID(),
    slug: slugFrom(attrs.slug),
    visibility: "private",
    labels: labelsOf(attrs.labels, "schema"),
    description: typeof attrs.description === "string" ? attrs.description : "",
    createdTimestamp: now,
    updatedTimestamp: now,
    fields: listIn(attrs.fields).map((field) => fieldFrom(field)),
    icons: { default: ICON },
    relationships: listIn(attrs.relationships).map(relationshipFrom),
  });

  /**
   * The reference's update: the members given change, the rest stay. A field or relationship
   * given by an id the schema has changes in place, another id adds one; none is removed (a
   * field goes by its own DELETE), and a deleted field's id is not free again at once.
   */
  const updated = (schema: SchemaRow, attrs: Attributes, now: string): SchemaRow => {
    const fields = [...schema.fields];
    for (const given of listIn(attrs.fields)) {
      const index = isObject(given) ? fields.findIndex((field) => field.id === given.id) : -1;
      if (index >= 0 && fields[index].status === "marked_for_deletion") {
        throw invalid("schema.fields.id", `Field id ${fields[index].id} belongs to a deleted field and cannot be reused yet`);
      }
      const field = fieldFrom(given, fields[index]);
      if (index >= 0) fields[index] = field;
      else fields.push(field);
    }
    const relationships = [...schema.relationships];
    for (const given of listIn(attrs.relationships)) {
      const relationship = relationshipFrom(given);
      const index = relationships.findIndex((held) => held.id === relationship.id);
      if (index >= 0) relationships[index] = relationship;
      else relationships.push(relationship);
    }
    return {
      ...schema,
      slug: attrs.slug === undefined ? schema.slug : slugFrom(attrs.slug, schema),
      labels: attrs.labels === undefined ? schema.labels : labelsOf(attrs.labels, "schema"),
      description: typeof attrs.description === "string" ? attrs.description : schema.description,
      fields,
      relationships,
      updatedTimestamp: now,
    };
  };

  /** The reference's field DELETE: the field is marked, and its values on the schema's records are gone. */
  const deleteField = (schema: SchemaRow, fieldId: string): SchemaRow => {
    const field = liveFields(schema).find((held) => held.id === fieldId) ?? throwError(NOT_FOUND);
    field.status = "marked_for_deletion";
    for (const record of records.where((r) => r.schemaId === schema.id)) record.fields = record.fields.filter((value) => value.id !== fieldId);
    schema.updatedTimestamp = new Date(crm.now()).toISOString();
    return schema;
  };

  /** Creates the record, or updates the one with the same id or externalId ("create or update"). */
  const upsertRecord = (schema: SchemaRow, attrs: Attributes): RecordRow => {
    const fields = Array.isArray(attrs.fields) ? attrs.fields : [];
    for (const field of fields) {
      if (!isObject(field) || !liveFields(schema).some((f) => f.id === field.id))
        throw invalid("record.fields", `Unknown field ${JSON.stringify(isObject(field) ? field.id : field)}`);
    }
    checkAgainstSchema(schema, fields as RecordRow["fields"]);
    const relationships: Record<string, string[]> = {};
    for (const [name, ids] of Object.entries(isObject(attrs.relationships) ? attrs.relationships : {})) {
      if (!schema.relationships.some((r) => r.id === name)) throw invalid("record.relationships", `Unknown relationship ${name}`);
      relationships[name] = (Array.isArray(ids) ? ids : [ids]).map(String);
    }
    const externalId = typeof attrs.externalId === "string" ? attrs.externalId : null;
    const now = new Date(crm.now()).toISOString();
    const existing = records.find(
      (r) => r.schemaId === schema.id && ((typeof attrs.id === "string" && r.id === attrs.id) || (externalId !== null && r.externalId === externalId)),
    );
    const values = { fields: fields as RecordRow["fields"], relationships, externalId, updatedTimestamp: now };
    if (existing) return Object.assign(existing, values);
    return records.put({ id: typeof attrs.id === "string" ? attrs.id : randomUUID(), schemaId: schema.id, createdTimestamp: now, ...values });
  };

  const findRecord = (req: CrmRequest): RecordRow => {
    const schema = findSchema(req.params.schemaId);
    return records.find((r) => r.schemaId === schema.id && r.id === req.params.recordId) ?? throwError(NOT_FOUND);
  };

  return [
    { method: "GET", pattern: "/customObjects/schemas", handle: (req) => ok(crm.kinds.list(req, schemaKind, matchesFilters(req, schemas.all()), listOptions)) },
    { method: "GET", pattern: "/customObjects/schemas/:id", handle: (req) => ok(crm.kinds.one(req, schemaKind, findSchema(req.params.id))) },
    {
      method: "POST",
      pattern: "/customObjects/schemas",
      handle: (req) => ({
        status: 201,
        body: crm.kinds.one(req, schemaKind, schemas.put(schemaFrom(attributesOf(req, "schema"), new Date(crm.now()).toISOString()))),
      }),
    },
    {
      method: "PUT",
      pattern: "/customObjects/schemas/:schemaId",
      handle: (req) => {
        const schema = findSchema(req.params.schemaId);
        return ok(crm.kinds.one(req, schemaKind, Object.assign(schema, updated(schema, attributesOf(req, "schema"), new Date(crm.now()).toISOString()))));
      },
    },
    {
      method: "DELETE",
      pattern: "/customObjects/schemas/:id",
      handle: (req) => {
        const schema = findSchema(req.params.id);
        for (const record of records.where((r) => r.schemaId === schema.id)) records.delete(record.id);
        schemas.delete(schema.id);
        return { status: 200 };
      },
    },
    {
      method: "DELETE",
      pattern: "/customObjects/schemas/:schemaId/fields/:fieldId",
      handle: (req) => ({ status: 202, body: crm.kinds.one(req, schemaKind, deleteField(findSchema(req.params.schemaId), req.params.fieldId)) }),
    },
    {
      method: "GET",
      pattern: "/customObjects/records/:schemaId",
      handle: (req) => {
        const schema = findSchema(req.params.schemaId);
        return ok(
          crm.kinds.list(
            req,
            recordKind,
            matchesFilters(
              req,
              records.where((r) => r.schemaId === schema.id),
            ),
            listOptions,
          ),
        );
      },
    },
    {
      method: "POST",
      pattern: "/customObjects/records/:schemaId",
      handle: (req) => ({ status: 201, body: crm.kinds.one(req, recordKind, upsertRecord(findSchema(req.params.schemaId), attributesOf(req, "record"))) }),
    },
    { method: "GET", pattern: "/customObjects/records/:schemaId/:recordId", handle: (req) => ok(crm.kinds.one(req, recordKind, findRecord(req))) },
    {
      method: "DELETE",
      pattern: "/customObjects/records/:schemaId/:recordId",
      handle: (req) => {
        records.delete(findRecord(req).id);
        return { status: 202 };
      },
    },
  ];
}

function throwError(error: ApiError): never {
  throw error;
}

const SUBSCRIPTION_SCHEMA = "6449c3f3-b68d-46d1-850b-c8aea998ce1b";
const TICKET_SCHEMA = "0b7e2a55-3c1d-4f8e-9a6b-2d4c8e1f7a90";
const labels = (singular: string, plural = `${singular}s`): Labels => ({ singular, plural });

/** Two schemas with a handful of records, so queries have something to find from the start. */
function seedCustomObjects(tables: { schemas: Table<SchemaRow>; records: Table<RecordRow> }): void {
  const created = "2024-03-01T12:00:00Z";
  tables.schemas.put({
    id: SUBSCRIPTION_SCHEMA,
    slug: "subscription",
    visibility: "private",
    labels: labels("Subscription"),
    description: "Software subscriptions held by contacts and accounts",
    createdTimestamp: created,
    updatedTimestamp: created,
    fields: [
      {
        id: "plan",
        labels: labels("Plan"),
        type: "dropdown",
        required: true,
        options: ["Basic", "Pro", "Enterprise"].map((value, index) => ({ id: `00000000-0000-4000-9000-00000000000${index + 1}`, value })),
      },
      { id: "seats", labels: labels("Seats", "Seats"), type: "number", required: false, scale: 0 },
      { id: "renewal-date", labels: labels("Renewal date"), type: "date", required: false },
      { id: "notes", labels: labels("Notes", "Notes"), type: "textarea", required: false },
    ],
    icons: { default: ICON },
    relationships: [
      { id: "primary-contact", labels: labels("Primary Contact"), description: "Contact who owns the subscription", namespace: "contacts", hasMany: false },
      { id: "account", labels: labels("Account"), description: "Account billed", namespace: "accounts", hasMany: false },
    ],
  });
  tables.schemas.put({
    id: TICKET_SCHEMA,
    slug: "support-ticket",
    visibility: "private",
    labels: labels("Support Ticket"),
    description: "Support tickets",
    createdTimestamp: "2024-02-01T12:00:00Z",
    updatedTimestamp: "2024-02-01T12:00:00Z",
    fields: [
      { id: "subject", labels: labels("Subject"), type: "text", required: true },
      { id: "priority", labels: labels("Priority", "Priorities"), type: "number", required: false, scale: 0 },
    ],
    icons: { default: ICON },
    relationships: [{ id: "account", labels: labels("Account"), description: "Account that opened the ticket", namespace: "accounts", hasMany: false }],
  });
  const subscriptions: Array<[string, string, number | null, string | null, string, string[]]> = [
    ["sub-1", "Basic", 5, "2025-01-15", "", ["11"]],
    ["sub-2", "Pro", 25, "2025-03-01", "Upsell candidate", ["12"]],
    ["sub-3", "Enterprise", 250, "2024-12-31", "Key account", []],
    ["sub-4", "Pro", null, null, "", ["11"]],
  ];
  subscriptions.forEach(([externalId, plan, seats, renewal, notes, contacts], index) => {
    const timestamp = `2024-03-0${index + 2}T09:00:00Z`;
    tables.records.put({
      id: `00000000-0000-4000-8000-00000000000${index + 1}`,
      externalId,
      schemaId: SUBSCRIPTION_SCHEMA,
      fields: [
        { id: "plan", value: plan },
        { id: "seats", value: seats },
        { id: "renewal-date", value: renewal },
        { id: "notes", value: notes },
      ],
      relationships: { "primary-contact": contacts },
      createdTimestamp: timestamp,
      updatedTimestamp: timestamp,
    });
  });
  tables.records.put({
    id: "00000000-0000-4000-8000-000000000101",
    externalId: "ticket-1",
    schemaId: TICKET_SCHEMA,
    fields: [
      { id: "subject", value: "Cannot log in" },
      { id: "priority", value: 1 },
    ],
    relationships: { account: ["1"] },
    createdTimestamp: "2024-02-02T09:00:00Z",
    updatedTimestamp: "2024-02-02T09:00:00Z",
  });
}
