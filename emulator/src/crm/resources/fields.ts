import { ApiError, fieldError, isObject, unprocessable, type Attributes, type CrmRequest } from "../api";
import { matches } from "../collections";
import { collection, flag, id, integer, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { crmModule, table } from "../module";

export const fieldsModule = crmModule({
  tables: { fields: table<CollectionRow>(), fieldOptions: table<CollectionRow>(), fieldRels: table<CollectionRow>() },
  routes: contactFieldRoutes,
});

export const CONTACT_FIELD_TYPES = ["dropdown", "hidden", "checkbox", "date", "text", "datetime", "textarea", "NULL", "listbox", "radio"];

/** The personalization tag the service makes from a title: "Another Test Title" is ANOTHER_TEST_TITLE. */
const perstagOf = (title: string): string =>
  title
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");

/**
 * Contact custom fields (/fields), their options (POST /fieldOption/bulk) and their relations
 * to lists (/fieldRels, relid 0 meaning every list). A field's options and relations are
 * answered beside it, their ids on it (options, relations).
 */
function contactFieldRoutes(crm: CrmContext): Route[] {
  const { fields, fieldOptions, fieldRels, fieldValues, lists } = crm.tables;
  const present = (plural: string, rows: CollectionRow[], req: CrmRequest) => rows.map((row) => crm.kinds.get(plural).present(row, req, "list"));
  const optionsOf = (field: { id: string }) => fieldOptions.where((option) => option.field === field.id);
  const relationsOf = (field: { id: string }) => fieldRels.where((rel) => rel.field === field.id);

  const contactFields = collection<CollectionRow>(crm, {
    singular: "field",
    plural: "fields",
    record: "Field",
    table: fields,
    createStatus: 201,
    fields: {
      title: { required: "The title field is required." },
      descript: { default: null },
      type: { required: "The type field is required.", allowed: CONTACT_FIELD_TYPES },
      isrequired: { form: flag, default: 0 },
      perstag: { default: (draft) => perstagOf(String(draft.title)) },
      defval: { default: null },
      show_in_list: { form: flag, default: 0 },
      rows: { default: "0" },
      cols: { default: "0" },
      visible: { form: flag, default: 1 },
      service: {},
      ordernum: { default: () => String(fields.size + 1) },
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: {
      options: (field, req) => ({ fieldOptions: present("fieldOptions", optionsOf(field), req) }),
      relations: (field, req) => ({ fieldRels: present("fieldRels", relationsOf(field), req) }),
    },
    list: { filters: { perstag: matches("perstag") }, defaultLimit: 100 },
    alongside: (rows, req) => ({
      fieldOptions: present("fieldOptions", rows.flatMap(optionsOf), req),
      fieldRels: present("fieldRels", rows.flatMap(relationsOf), req),
    }),
    hooks: {
      check(draft, existing) {
        const title = String(draft.title);
        if (fields.find((row) => row.id !== existing?.id && String(row.title).toLowerCase() === title.toLowerCase())) {
          throw new ApiError({
            status: 422,
            body: {
              errors: [
                {
                  title: "There is already a field with this title",
                  detail: `There is already a field named '${title}' -- choose another name`,
                  code: "duplicate",
                },
              ],
            },
          });
        }
      },
      members: (row) => ({ options: optionsOf(row).map((option) => option.id), relations: relationsOf(row).map((rel) => rel.id) }),
      // Writes answer the numbers and flags as numbers, where reads answer digit strings (the reference's examples).
      written: (document) => {
        const field = document.field as Attributes;
        return {
          ...document,
          field: {
            ...field,
            ...Object.fromEntries(["isrequired", "show_in_list", "rows", "cols", "visible", "ordernum"].map((name) => [name, Number(field[name])])),
          },
        };
      },
      removed(row) {
        for (const table of [fieldOptions, fieldRels, fieldValues]) table.deleteWhere((child) => child.field === row.id);
      },
    },
  });

  /** A field of this id, or a 422 naming the member that refers to it. */
  const existingField = (draft: CollectionRow) => {
    if (!fields.get(String(draft.field))) throw unprocessable(fieldError("field_invalid", "field", `No custom field with id ${draft.field}.`));
  };

  const options = collection<CollectionRow>(crm, {
    singular: "fieldOption",
    plural: "fieldOptions",
    record: "FieldOption",
    table: fieldOptions,
    createStatus: 201,
    // Not in the reference, which makes options only in bulk: a test's way to remove one behind a program's back.
    operations: ["read", "delete"],
    fields: {
      orderid: { form: integer, default: 0 },
      value: { required: "The value field is required." },
      label: {},
      isdefault: { form: integer, default: 0 },
      field: { form: id, required: "The field field is required." },
    },
    timestamps: { cdate: "created", udate: "updated" },
    links: { field: (option, req) => ({ field: crm.kinds.get("fields").present(contactFields.find(String(option.field)), req, "single") }) },
    hooks: { check: existingField },
  });

  const relations = collection<CollectionRow>(crm, {
    singular: "fieldRel",
    plural: "fieldRels",
    record: "FieldRel",
    table: fieldRels,
    createStatus: 201,
    operations: ["create", "delete"],
    fields: { field: { form: id, required: "The field field is required." }, relid: { form: id, default: "0" }, dorder: { default: "0" } },
    timestamps: { cdate: "created" },
    hooks: {
      check(draft) {
        existingField(draft);
        if (draft.relid !== "0" && !lists.get(String(draft.relid)))
          throw unprocessable(fieldError("field_invalid", "relid", `No list with id ${draft.relid}.`));
      },
      // The answer repeats the ids in the type they were sent in (numbers in the reference).
      written: (document, _row, attrs) => ({ fieldRel: { ...(document.fieldRel as Attributes), relid: attrs.relid ?? 0, field: attrs.field } }),
    },
  });

  return [
    ...contactFields.routes,
    {
      method: "POST",
      pattern: "/fieldOption/bulk",
      handle: (req) => {
        const items = Array.isArray(req.body) ? req.body : isObject(req.body) ? req.body.fieldOptions : undefined;
        if (!Array.isArray(items) || items.length === 0 || !items.every(isObject)) {
          throw new ApiError({ status: 422, body: { errors: "Bulk operation failed. Request must contain an array of fieldOption objects." } });
        }
        // All or none: a refused item takes back the ones made before it.
        const made: CollectionRow[] = [];
        try {
          for (const item of items) made.push(options.create(item));
        } catch (error) {
          for (const option of made) fieldOptions.delete(option.id);
          throw error;
        }
        return { status: 201, body: { fieldOptions: present("fieldOptions", made, req) } };
      },
    },
    ...options.routes,
    ...relations.routes,
  ];
}
