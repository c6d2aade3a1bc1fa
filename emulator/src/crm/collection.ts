import {
  attributesOf,
  bareAttributesOf,
  fieldError,
  flagOf,
  idOf,
  ok,
  orNoResult,
  optionalString,
  unprocessable,
  type Attributes,
  type CrmRequest,
} from "./api";
import type { ServiceResponse } from "../service";
import type { CrmContext } from "./context";
import type { Document, Kind, ListOptions, Relation, View } from "./kinds";
import type { Route } from "./router";
import { linkRoutes, linksOf, type LinkAnswer } from "./resources/shared";
import type { Row, Table } from "./store";
import type { Timestamps } from "./state";
import { isoTimestamp } from "./time";

/**
 * A declarative collection: a kind of the service's objects whose fields are each written
 * once (how a request sends it, what it must be, how it is stored and answered), with the
 * five operations the service gives most of its objects made from that: POST /<plural>,
 * GET /<plural> (filtered and paged), GET, PUT (partial: what is not sent stays) and
 * DELETE /<plural>/{id}, and a route for each link its objects carry. What a kind does
 * otherwise is a hook.
 */

/** A field's stored value: text, a 0/1 flag, an id as digits, a list of texts, or null. */
export type Stored = string | number | string[] | null;

export type CollectionRow = Row & Timestamps & Record<string, Stored>;

/** How a field travels: read from a request's attributes, answered from its stored value. */
export interface Form {
  read(attrs: Attributes, name: string): Stored;
  answer(stored: Stored): unknown;
}

/** Text, numbers taken as text (as the service does); answered as stored. */
export const text: Form = { read: (attrs, name) => optionalString(attrs, name) ?? "", answer: (stored) => stored };

/** Booleans, 0/1 or "0"/"1", stored 0/1 and answered "0"/"1" as the service's reads do. */
export const flag: Form = { read: (attrs, name) => flagOf(attrs[name]), answer: (stored) => String(stored) };

/** An id sent as a number or digits, 0 meaning none; answered as digits. */
export const id: Form = {
  read(attrs, name) {
    const value = attrs[name];
    if (value === 0 || value === "0" || value === null || value === "") return "0";
    const parsed = idOf(value);
    if (parsed === null) throw unprocessable(fieldError("field_invalid", name, `The ${name} attribute must be an integer id.`));
    return parsed;
  },
  answer: (stored) => stored,
};

/** A whole number, sent as a number or digits; answered as a number. */
export const integer: Form = {
  read(attrs, name) {
    const value = Number(attrs[name]);
    if (!Number.isInteger(value)) throw unprocessable(fieldError("field_invalid", name, `The ${name} attribute must be a whole number.`));
    return value;
  },
  answer: (stored) => stored,
};

/** A list of texts, sent as a JSON array of strings; answered as stored. */
export const texts: Form = {
  read(attrs, name) {
    const value = attrs[name];
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw unprocessable(fieldError("field_invalid", name, `The ${name} attribute must be an array of strings.`));
    }
    return value;
  },
  answer: (stored) => stored,
};

/**
 * The time of what came with the account (its built-in task types), never made or changed
 * through the API: answered null, as the reference's list of task types answers theirs.
 */
export const madeWithTheAccount = 0;

const timestampOf = (ms: number) => (ms === madeWithTheAccount ? null : isoTimestamp(ms));

const OPERATIONS = ["create", "list", "read", "update", "delete"] as const;
type Operation = (typeof OPERATIONS)[number];

export interface Field {
  /** text unless said otherwise. */
  form?: Form;
  /** Required on create, and not blank when sent: the service's message (true: "The <name> field is required."). */
  required?: true | string;
  /** The values the service takes; another is a 422 field_invalid naming them. */
  allowed?: readonly string[];
  /** A further rule: the message of a 422 field_invalid, or undefined when the value is fine. */
  rule?: (value: Stored) => string | undefined;
  /** Stored when a create does not send it ("" when not said); a function for a value made per object, from the fields before it. */
  default?: Stored | ((draft: Record<string, Stored>) => Stored);
  /** Other names a request may send it under, after its own (the answer uses its own). */
  alsoSentAs?: readonly string[];
  /** Made by the service: never taken from a request. */
  generated?: boolean;
}

/** A link's answer: a function of its owner, or null for an empty collection under the link's name. */
export type Links<T> = Record<string, LinkAnswer<T> | null>;

export interface Hooks<T extends CollectionRow> {
  /** Rules across fields or objects, on the object as a write would leave it (existing: on update). */
  check?(draft: T, existing: T | undefined): void;
  /** Members the answer adds besides the fields (an owner, counts). */
  members?(row: T, req: CrmRequest, view: View): Record<string, unknown>;
  /** The answer of a create or an update, where it differs from a read's. */
  written?(document: Document, row: T, attrs: Attributes, req: CrmRequest): Document;
  /** What goes with the object when it is deleted. */
  removed?(row: T): void;
}

export interface CollectionSpec<T extends CollectionRow> {
  singular: string;
  plural: string;
  /** The class the service's 404 names: "No Result found for <record> with id 3". */
  record: string;
  /** The status of that answer to a read or an update of a missing object, where the reference's is not 404 (a group's is 403). */
  missingStatus?: 403;
  table: Table<T>;
  fields: Record<string, Field>;
  /** The status of a create's answer. */
  createStatus: 200 | 201;
  /** Members every object answers the same (who owns it, settings the API does not write). */
  constants?: Record<string, unknown>;
  /** Timestamp members: when the object was made or last changed. */
  timestamps?: Record<string, "created" | "updated">;
  /** Links in the service's order, each answering (GET /<plural>/{id}/<name>); none: `links: []`. */
  links?: Links<T>;
  /** The operations served; all five unless said. */
  operations?: readonly Operation[];
  list?: ListOptions<T>;
  /** The rows a list answers from, where query parameters other than filters[...] select them. */
  select?(req: CrmRequest, rows: T[]): T[];
  /** Collections answered beside the object or the page, whatever include= says (a field's options and relations). */
  alongside?(rows: T[], req: CrmRequest): Document;
  relations?: Record<string, Relation<T>>;
  hooks?: Hooks<T>;
  /** A write's members come at the top of the request body, as the reference's requests of /dealRoles carry them, not under `singular`. */
  bareBody?: true;
}

export interface Collection<T extends CollectionRow> {
  kind: Kind<T>;
  routes: Route[];
  find(id: string): T;
  /** Checks and stores a new object from a request's attributes, with `fixed` values the route decides. */
  create(attrs: Attributes, fixed?: Partial<T>): T;
  /** Checks and applies the attributes sent, leaving the rest. */
  update(row: T, attrs: Attributes): T;
  /** The answer of a write of this row. */
  written(req: CrmRequest, row: T, attrs: Attributes, status?: number): ServiceResponse;
}

export function collection<T extends CollectionRow>(crm: CrmContext, spec: CollectionSpec<T>): Collection<T> {
  const { table, fields, hooks = {} } = spec;
  const links = spec.links ?? {};
  const linkNames = Object.keys(links);

  const kind = crm.kinds.register<T>({
    singular: spec.singular,
    plural: spec.plural,
    present: (row, req, view) => ({
      ...Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, (field.form ?? text).answer(row[name])])),
      ...spec.constants,
      ...hooks.members?.(row, req, view),
      ...Object.fromEntries(
        Object.entries(spec.timestamps ?? {}).map(([name, when]) => [name, timestampOf(when === "created" ? row.createdMs : row.updatedMs)]),
      ),
      links: linkNames.length === 0 ? [] : linksOf(req, spec.plural, row.id, linkNames),
      id: row.id,
    }),
    relations: spec.relations,
  });

  const find = (rowId: string): T => orNoResult(table.get(rowId), spec.record, rowId);
  /** The object a read or an update names, or the answer the reference gives those when it is missing. */
  const findForReadOrUpdate = (rowId: string): T => orNoResult(table.get(rowId), spec.record, rowId, spec.missingStatus);

  /** The fields the attributes send, read, checked and by their own name. */
  const sent = (attrs: Attributes): Record<string, Stored> => {
    const values: Record<string, Stored> = {};
    for (const [name, field] of Object.entries(fields)) {
      const sentAs = field.generated ? undefined : [name, ...(field.alsoSentAs ?? [])].find((n) => attrs[n] !== undefined);
      if (sentAs === undefined) continue;
      const value = (field.form ?? text).read(attrs, sentAs);
      // An id of 0 is none.
      const blank = value === null || String(value).trim() === "" || (field.form === id && value === "0");
      if (field.required && blank) throw missing(name, field, sentAs);
      if (field.allowed && !field.allowed.includes(String(value))) {
        throw unprocessable(fieldError("field_invalid", sentAs, `The ${sentAs} must be one of ${field.allowed.join(", ")}.`));
      }
      const broken = field.rule?.(value);
      if (broken) throw unprocessable(fieldError("field_invalid", sentAs, broken));
      values[name] = value;
    }
    return values;
  };

  const create = (attrs: Attributes, fixed: Partial<T> = {}): T => {
    const values = { ...sent(attrs), ...fixed } as Record<string, Stored>;
    const draft: Record<string, Stored> = {};
    for (const [name, field] of Object.entries(fields)) {
      if (values[name] === undefined && field.required) throw missing(name, field, name);
      draft[name] = values[name] ?? (typeof field.default === "function" ? field.default(draft) : (field.default ?? ""));
    }
    hooks.check?.(draft as T, undefined);
    const now = crm.now();
    return table.insert({ ...draft, createdMs: now, updatedMs: now } as unknown as Omit<T, "id">);
  };

  const update = (row: T, attrs: Attributes): T => {
    const changes = sent(attrs) as Partial<T>;
    hooks.check?.({ ...row, ...changes }, row);
    return table.update(row, { ...changes, updatedMs: crm.now() } as Partial<Omit<T, "id">>);
  };

  /** {<singular>: object} and what the kind answers alongside it. */
  const answer = (req: CrmRequest, row: T): Document => ({ ...spec.alongside?.([row], req), ...crm.kinds.one(req, kind, row) });

  const written = (req: CrmRequest, row: T, attrs: Attributes, status = 200): ServiceResponse => {
    const document = answer(req, row);
    return { status, body: hooks.written ? hooks.written(document, row, attrs, req) : document };
  };

  const member = (req: CrmRequest) => (spec.bareBody ? bareAttributesOf(req, spec.singular) : attributesOf(req, spec.singular));
  const one = `/${spec.plural}/:id`;
  const routeOf: Record<Operation, Route> = {
    create: {
      method: "POST",
      pattern: `/${spec.plural}`,
      handle: (req) => {
        const attrs = member(req);
        return written(req, create(attrs), attrs, spec.createStatus);
      },
    },
    list: {
      method: "GET",
      pattern: `/${spec.plural}`,
      handle: (req) => {
        const document = crm.kinds.list(req, kind, spec.select ? spec.select(req, table.all()) : table.all(), spec.list);
        const page = (document[spec.plural] as Array<{ id: string }>).map((presented) => table.get(presented.id)!);
        return ok({ ...spec.alongside?.(page, req), ...document });
      },
    },
    read: { method: "GET", pattern: one, handle: (req) => ok(answer(req, findForReadOrUpdate(req.params.id))) },
    update: {
      method: "PUT",
      pattern: one,
      handle: (req) => {
        const attrs = member(req);
        return written(req, update(findForReadOrUpdate(req.params.id), attrs), attrs);
      },
    },
    delete: {
      method: "DELETE",
      pattern: one,
      handle: (req) => {
        const row = find(req.params.id);
        hooks.removed?.(row);
        table.delete(row.id);
        return ok({});
      },
    },
  };
  const served = spec.operations ?? OPERATIONS;
  const routes = [
    ...OPERATIONS.filter((operation) => served.includes(operation)).map((operation) => routeOf[operation]),
    ...linkRoutes(spec.plural, find, links),
  ];
  return { kind, routes, find, create, update, written };
}

function missing(name: string, field: Field, sentAs: string) {
  const title = typeof field.required === "string" ? field.required : `The ${name} field is required.`;
  return unprocessable(fieldError("field_missing", sentAs, title));
}
