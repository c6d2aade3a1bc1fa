import {
  attributesOf,
  created,
  fieldError,
  flagOf,
  noResultFound,
  notFound,
  ok,
  optionalString,
  requiredString,
  unprocessable,
  type Attributes,
  type CrmRequest,
} from "../api";
import { requirePermission, type CrmContext } from "../context";
import type { Permission } from "../../shared/credentials";
import type { Kind } from "../kinds";
import type { Route } from "../router";
import { linksOf } from "./shared";
import type { Timestamps } from "../state";
import type { Row, Table } from "../store";
import { utcTimestamp } from "../time";
import { MULTI_VALUE_TYPES, normalizeValue } from "./fieldValues";

export interface FieldMetaRow extends Row, Timestamps {
  fieldLabel: string;
  fieldType: string;
  fieldOptions: string[] | null;
  fieldDefault: string | string[] | number | null;
  fieldDefaultCurrency: string | null;
  isFormVisible: 0 | 1;
  isRequired: 0 | 1;
  displayOrder: number;
}

/** The seed's field types, plus datetime which the reference also accepts. */
export const FIELD_TYPES = ["text", "textarea", "date", "datetime", "dropdown", "multiselect", "radio", "checkbox", "hidden", "currency", "number"];

/** After a delete the service answers 404 {message} naming the record (REAL-WORLD.md); an id never issued, the reference's 404 {errors}. */
export const finder =
  <T extends Row>(table: Table<T>, recordType: string) =>
  (id: string): T => {
    const row = table.get(id);
    if (row) return row;
    throw table.issued(id) ? noResultFound(recordType, id) : notFound();
  };

/** Which object's custom fields a definition collection holds: the reference's names for them. */
export interface FieldMetaSubject {
  /** "account" or "deal": the collection is /<subject>CustomFieldMeta, its member <subject>CustomFieldMetum. */
  subject: string;
  table: Table<FieldMetaRow>;
  /** The permission a write needs, where the service asks for one. */
  permission?: Permission;
  /** What goes with a deleted definition (its values). */
  onDelete?: (row: FieldMetaRow) => void;
}

/**
 * A custom-field definition collection, as the reference describes /accountCustomFieldMeta and
 * /dealCustomFieldMeta alike, with REAL-WORLD.md's quirks of both: creates answer 201, flags are
 * 1/0, displayOrder a number, the list carries generated members and no meta, a PUT takes no
 * fieldType, a delete answers {message}.
 */
export function fieldMetaCollection(
  crm: CrmContext,
  { subject, table, permission, onDelete }: FieldMetaSubject,
): { kind: Kind<FieldMetaRow>; find: (id: string) => FieldMetaRow; routes: Route[] } {
  const plural = `${subject}CustomFieldMeta`;
  const singular = `${subject}CustomFieldMetum`;
  const capitalized = (name: string) => `${name[0].toUpperCase()}${name.slice(1)}`;
  const kind = crm.kinds.register<FieldMetaRow>({
    singular,
    plural,
    present: (row, req, view) => ({
      id: row.id,
      fieldLabel: row.fieldLabel,
      fieldType: row.fieldType,
      fieldOptions: row.fieldOptions,
      fieldDefault: row.fieldDefault,
      fieldDefaultCurrency: row.fieldDefaultCurrency,
      isFormVisible: row.isFormVisible,
      isRequired: row.isRequired,
      displayOrder: row.displayOrder,
      ...(view === "list" ? { personalization: "", knownFieldId: null, hideFieldFlag: 0 } : {}),
      createdTimestamp: utcTimestamp(row.createdMs),
      updatedTimestamp: utcTimestamp(row.updatedMs),
      links: linksOf(req, plural, row.id, [`${subject}CustomFieldData`]),
    }),
  });

  const find = finder(table, capitalized(singular));
  const manage = (req: CrmRequest) => {
    if (permission) requirePermission(crm, req.token, permission);
  };

  /** Applies the writable definition attributes; fieldType only on create (the update lists none). */
  const apply = (row: Omit<FieldMetaRow, "id">, attrs: Attributes): void => {
    if (attrs.fieldLabel !== undefined) row.fieldLabel = requiredString(attrs, "fieldLabel", "The field label field is required.");
    if (attrs.fieldOptions !== undefined) row.fieldOptions = stringListOrNull(attrs.fieldOptions, "fieldOptions");
    if (attrs.fieldDefault !== undefined) row.fieldDefault = defaultValueOf(row.fieldType, attrs.fieldDefault);
    if (attrs.fieldDefaultCurrency !== undefined) row.fieldDefaultCurrency = optionalString(attrs, "fieldDefaultCurrency") ?? null;
    if (attrs.isFormVisible !== undefined) row.isFormVisible = flagOf(attrs.isFormVisible);
    if (attrs.isRequired !== undefined) row.isRequired = flagOf(attrs.isRequired);
    if (attrs.displayOrder !== undefined) {
      const order = Number(attrs.displayOrder);
      if (!Number.isInteger(order)) throw unprocessable(fieldError("field_invalid", "displayOrder", "The display order must be an integer."));
      row.displayOrder = order;
    }
  };

  const routes: Route[] = [
    {
      method: "POST",
      pattern: `/${plural}`,
      handle: (req) => {
        manage(req);
        const attrs = attributesOf(req, singular);
        const fieldLabel = requiredString(attrs, "fieldLabel", "The field label field is required.");
        const fieldType = requiredString(attrs, "fieldType", "The field type field is required.");
        if (!FIELD_TYPES.includes(fieldType)) {
          throw unprocessable(fieldError("field_invalid", "fieldType", `The field type must be one of ${FIELD_TYPES.join(", ")}.`));
        }
        const now = crm.now();
        const draft: Omit<FieldMetaRow, "id"> = {
          fieldLabel,
          fieldType,
          fieldOptions: null,
          fieldDefault: null,
          fieldDefaultCurrency: null,
          isFormVisible: 0,
          isRequired: 0,
          displayOrder: table.size + 1,
          createdMs: now,
          updatedMs: now,
        };
        apply(draft, attrs);
        // REAL-WORLD.md (high): 201, where the reference writes 200.
        return created(crm.kinds.one(req, kind, table.insert(draft)));
      },
    },
    { method: "GET", pattern: `/${plural}`, handle: (req) => ok(crm.kinds.list(req, kind, table.all(), { withoutMeta: true })) },
    { method: "GET", pattern: `/${plural}/:id`, handle: (req) => ok(crm.kinds.one(req, kind, find(req.params.id))) },
    {
      method: "PUT",
      pattern: `/${plural}/:id`,
      handle: (req) => {
        manage(req);
        const row = find(req.params.id);
        const updated = { ...row };
        // Under another root key (`${plural}`, say) nothing is read: 200 and no change (REAL-WORLD.md).
        apply(updated, attributesOf(req, singular));
        Object.assign(row, updated, { updatedMs: crm.now() });
        return ok(crm.kinds.one(req, kind, row));
      },
    },
    {
      method: "DELETE",
      pattern: `/${plural}/:id`,
      handle: (req) => {
        manage(req);
        const row = find(req.params.id);
        onDelete?.(row);
        table.delete(row.id);
        return ok({ message: `${capitalized(plural)} deleted.` });
      },
    },
  ];
  return { kind, find, routes };
}

function defaultValueOf(fieldType: string, value: unknown): FieldMetaRow["fieldDefault"] {
  // An empty default removes it.
  if (value === null || value === "") return null;
  if (MULTI_VALUE_TYPES.has(fieldType) && Array.isArray(value)) return stringListOrNull(value, "fieldDefault");
  if (fieldType === "currency") {
    const cents = normalizeValue("currency", value);
    if (cents === undefined) throw unprocessable(fieldError("field_invalid", "fieldDefault", "Currency defaults are whole minor units (cents)."));
    return cents;
  }
  if (typeof value === "string" || typeof value === "number") return value;
  throw unprocessable(fieldError("field_invalid", "fieldDefault", "The default must be a string, or an array of strings for multi-value fields."));
}

function stringListOrNull(value: unknown, field: string): string[] | null {
  if (value === null) return null;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  throw unprocessable(fieldError("field_invalid", field, `The ${field} attribute must be an array of strings.`));
}
