import { attributesOf, fieldError, idOf, isObject, ok, orNoResult, optionalString, unprocessable, type Attributes, type CrmRequest } from "../api";
import { equals } from "../collections";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import type { Route } from "../router";
import { fieldMetaCollection, finder, type FieldMetaRow } from "./customFieldMeta";
import { linkRoutes, linksOf } from "./shared";
import { normalizeValue, type StoredValue } from "./fieldValues";
import type { Timestamps } from "../state";
import { listOf, type Row } from "../store";
import { utcTimestamp } from "../time";
import { crmModule, table } from "../module";

export interface FieldDataRow extends Row, Timestamps {
  accountId: string;
  customFieldId: string;
  fieldValue: StoredValue;
  fieldCurrency: string | null;
}

export const customFieldsModule = crmModule({ tables: { fieldMeta: table<FieldMetaRow>(), fieldData: table<FieldDataRow>() }, routes: customFieldRoutes });

export const MAX_BULK_ITEMS = 250;

/** A custom field value checked against its field, ready to be stored on an account. */
export interface FieldValueWrite {
  customFieldId: string;
  fieldValue: StoredValue;
  fieldCurrency: string | null;
}

function customFieldRoutes(crm: CrmContext): Route[] {
  const { fieldMeta, fieldData, accounts } = crm.tables;

  const {
    kind: metaKind,
    find: findMeta,
    routes: metaRoutes,
  } = fieldMetaCollection(crm, {
    subject: "account",
    table: fieldMeta,
    permission: "manage_accounts",
    onDelete: (row) => {
      for (const datum of fieldData.where((d) => d.customFieldId === row.id)) fieldData.delete(datum.id);
    },
  });

  const dataKind = crm.kinds.register<FieldDataRow>({
    singular: "accountCustomFieldDatum",
    plural: "accountCustomFieldData",
    present: (row, req) => ({
      id: row.id,
      // The service answers these ids as numbers, unlike most ids.
      accountCustomFieldMetumId: Number(row.customFieldId),
      accountId: Number(row.accountId),
      customFieldId: Number(row.customFieldId),
      createdTimestamp: utcTimestamp(row.createdMs),
      updatedTimestamp: utcTimestamp(row.updatedMs),
      fieldValue: row.fieldValue,
      ...(row.fieldCurrency === null ? {} : { fieldCurrency: row.fieldCurrency }),
      links: linksOf(req, "accountCustomFieldData", row.id, ["account", "accountCustomFieldMetum"]),
    }),
    relations: {
      account: { kind: "accounts", many: false, related: (row) => listOf(accounts.get(row.accountId)) },
      accountCustomFieldMetum: { kind: "accountCustomFieldMeta", many: false, related: (row) => listOf(fieldMeta.get(row.customFieldId)) },
    },
  });

  const findDatum = finder(fieldData, "AccountCustomFieldDatum");
  const touchAccount = (accountId: string, now: number): void => {
    const account = accounts.get(accountId);
    if (account) account.updatedMs = now;
  };

  /** Bulk bodies are a top-level JSON array of at most MAX_BULK_ITEMS objects. */
  const bulkItems = (req: CrmRequest): Attributes[] => {
    const items = req.body;
    if (!Array.isArray(items) || items.length === 0 || !items.every(isObject)) {
      throw unprocessable(fieldError("field_invalid", "data", "The request body must be a non-empty JSON array of objects."));
    }
    if (items.length > MAX_BULK_ITEMS) {
      throw unprocessable(fieldError("field_invalid", "data", `At most ${MAX_BULK_ITEMS} items may be sent at once; got ${items.length}.`));
    }
    return items;
  };

  /** Checks one create item: an existing account and field, and a value fit for the field's type. */
  const checkNewDatum = (attrs: Attributes, prefix: string): { accountId: string } & FieldValueWrite => {
    const accountField = attrs.customerAccountId !== undefined ? "customerAccountId" : "accountId";
    const accountId = idOf(attrs[accountField]);
    if (attrs[accountField] === undefined)
      throw unprocessable(fieldError("field_missing", `${prefix}customerAccountId`, "The customer account id was not provided."));
    if (accountId === null || !accounts.get(accountId)) {
      throw unprocessable(fieldError("field_invalid", `${prefix}${accountField}`, `No account with id ${String(attrs[accountField])}.`));
    }
    return { accountId, ...checkFieldValue(crm, attrs, prefix) };
  };

  const existingDatum = (write: { accountId: string; customFieldId: string }): FieldDataRow | undefined =>
    fieldData.find((d) => d.accountId === write.accountId && d.customFieldId === write.customFieldId);

  /** Write answers add the value exactly as it was sent (REAL-WORLD.md); reads do not. */
  const withOriginalValue = (document: Document, attrs: Attributes): Document => {
    (document.accountCustomFieldDatum as Attributes).originalValue = attrs.fieldValue;
    return document;
  };

  const insertDatum = (write: { accountId: string } & FieldValueWrite, now: number): FieldDataRow =>
    fieldData.insert({ ...write, createdMs: now, updatedMs: now });

  /** Checks a new value for an existing datum. */
  const checkUpdate = (datum: FieldDataRow, attrs: Attributes, prefix: string): FieldValueWrite =>
    checkFieldValue(crm, { ...attrs, customFieldId: datum.customFieldId, fieldCurrency: attrs.fieldCurrency ?? datum.fieldCurrency }, prefix);

  return [
    ...metaRoutes,
    {
      method: "POST",
      pattern: "/accountCustomFieldData",
      handle: (req) => {
        const attrs = attributesOf(req, "accountCustomFieldDatum");
        const write = checkNewDatum(attrs, "");
        if (existingDatum(write)) {
          throw unprocessable(fieldError("duplicate", "customFieldId", `Account ${write.accountId} already has a value for field ${write.customFieldId}.`));
        }
        const now = crm.now();
        const row = insertDatum(write, now);
        touchAccount(write.accountId, now);
        return ok(withOriginalValue(crm.kinds.one(req, dataKind, row), attrs));
      },
    },
    {
      method: "POST",
      pattern: "/accountCustomFieldData/bulkCreate",
      handle: (req) => {
        const writes = bulkItems(req).map((item, index) => checkNewDatum(item, `${index}/`));
        const now = crm.now();
        // Creates or updates: a value the account already has for the field is overwritten (REAL-WORLD.md).
        for (const write of writes) {
          const existing = existingDatum(write);
          if (existing) Object.assign(existing, write, { updatedMs: now });
          else insertDatum(write, now);
        }
        // As documented: only the first item's account gets its last-modified date refreshed.
        touchAccount(writes[0].accountId, now);
        // REAL-WORLD.md's recorded text; the reference writes it "the bulk insert was successful".
        return ok({ message: "The bulk insert was successful." });
      },
    },
    {
      method: "PATCH",
      pattern: "/accountCustomFieldData/bulkUpdate",
      handle: (req) => {
        const updates = bulkItems(req).map((item, index) => {
          const datum = fieldData.get(idOf(item.id) ?? "");
          if (!datum)
            throw unprocessable(
              fieldError(item.id === undefined ? "field_missing" : "field_invalid", `${index}/id`, `No custom field value with id ${String(item.id)}.`),
            );
          return { datum, write: checkUpdate(datum, item, `${index}/`) };
        });
        const now = crm.now();
        for (const { datum, write } of updates) {
          Object.assign(datum, write, { updatedMs: now });
          touchAccount(datum.accountId, now);
        }
        const ids = updates.map(({ datum }) => datum.id).join(", ");
        return ok({ message: `AccountCustomFieldDatas with ID(s): ${ids} successfully bulk updated.` });
      },
    },
    {
      method: "GET",
      pattern: "/accountCustomFieldData",
      handle: (req) =>
        ok(
          crm.kinds.list(req, dataKind, fieldData.all(), {
            filters: { customerAccountId: equals("accountId"), accountId: equals("accountId"), customFieldId: equals("customFieldId") },
            // A number here, unlike most collections (REAL-WORLD.md).
            totalAsNumber: true,
          }),
        ),
    },
    { method: "GET", pattern: "/accountCustomFieldData/:id", handle: (req) => ok(crm.kinds.one(req, dataKind, findDatum(req.params.id))) },
    {
      method: "PUT",
      pattern: "/accountCustomFieldData/:id",
      handle: (req) => {
        const datum = findDatum(req.params.id);
        const attrs = attributesOf(req, "accountCustomFieldDatum");
        const write = checkUpdate(datum, attrs, "");
        const now = crm.now();
        Object.assign(datum, write, { updatedMs: now });
        touchAccount(datum.accountId, now);
        return ok(withOriginalValue(crm.kinds.one(req, dataKind, datum), attrs));
      },
    },
    ...linkRoutes("accountCustomFieldMeta", findMeta, {
      accountCustomFieldData: (meta, req) => ({
        accountCustomFieldData: fieldData.where((d) => d.customFieldId === meta.id).map((d) => dataKind.present(d, req, "list")),
      }),
    }),
    ...linkRoutes("accountCustomFieldData", findDatum, {
      account: (datum, req) => ({
        account: crm.kinds.get("accounts").present(orNoResult(accounts.get(datum.accountId), "Account", datum.accountId), req, "single"),
      }),
      accountCustomFieldMetum: (datum, req) => ({ accountCustomFieldMetum: metaKind.present(findMeta(datum.customFieldId), req, "single") }),
    }),
    {
      method: "DELETE",
      pattern: "/accountCustomFieldData/:id",
      handle: (req) => {
        fieldData.delete(findDatum(req.params.id).id);
        return ok({ message: "AccountCustomFieldData deleted." });
      },
    },
  ];
}

/**
 * Checks {customFieldId, fieldValue, fieldCurrency} against the field's type and normalizes the
 * value: cents as an integer for currency, YYYY-MM-DD for dates, "||a||b||" for multi-value fields.
 * `prefix` locates the item in a bulk body ("3/") for the error pointer.
 */
export function checkFieldValue(crm: CrmContext, attrs: Attributes, prefix = ""): FieldValueWrite {
  const customFieldId = idOf(attrs.customFieldId);
  if (attrs.customFieldId === undefined) throw unprocessable(fieldError("field_missing", `${prefix}customFieldId`, "The custom field id was not provided."));
  const meta = customFieldId === null ? undefined : crm.tables.fieldMeta.get(customFieldId);
  if (!meta) throw unprocessable(fieldError("field_invalid", `${prefix}customFieldId`, `No custom field with id ${String(attrs.customFieldId)}.`));
  if (attrs.fieldValue === undefined || attrs.fieldValue === null) {
    throw unprocessable(fieldError("field_missing", `${prefix}fieldValue`, "The field value was not provided."));
  }
  const fieldValue = normalizeValue(meta.fieldType, attrs.fieldValue);
  if (fieldValue === undefined) {
    throw unprocessable(
      fieldError(
        "field_invalid",
        `${prefix}fieldValue`,
        `The custom field value \`${JSON.stringify(attrs.fieldValue)}\` could not be saved to the custom field of type \`${meta.fieldType}\`.`,
      ),
    );
  }
  const fieldCurrency = meta.fieldType === "currency" ? (optionalString(attrs, "fieldCurrency") ?? meta.fieldDefaultCurrency ?? "usd") : null;
  return { customFieldId: meta.id, fieldValue, fieldCurrency };
}

/** The `fields` member of an account create or update: [{customFieldId, fieldValue, fieldCurrency?}]. */
export function checkAccountFields(crm: CrmContext, value: unknown): FieldValueWrite[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject))
    throw unprocessable(fieldError("field_invalid", "fields", "The fields attribute must be an array of objects."));
  return value.map((item, index) => checkFieldValue(crm, item, `fields/${index}/`));
}

/** Stores each value on the account (replacing an earlier value of the same field); answers the `fields` echo. */
export function saveAccountFields(crm: CrmContext, accountId: string, writes: FieldValueWrite[]): Attributes[] {
  const now = crm.now();
  return writes.map((write) => {
    const existing = crm.tables.fieldData.find((d) => d.accountId === accountId && d.customFieldId === write.customFieldId);
    if (existing) Object.assign(existing, write, { updatedMs: now });
    else crm.tables.fieldData.insert({ accountId, ...write, createdMs: now, updatedMs: now });
    return {
      customFieldId: Number(write.customFieldId),
      fieldValue: write.fieldValue,
      ...(write.fieldCurrency === null ? {} : { fieldCurrency: write.fieldCurrency }),
      accountId,
    };
  });
}
