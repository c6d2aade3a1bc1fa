import { attributesOf, created, fieldError, flagOf, idOf, ok, orNoResult, optionalString, unprocessable, type Attributes, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linkRoutes, linksOf, listRoute, readRoute } from "./shared";
import type { Timestamps } from "../state";
import type { Row, Table } from "../store";
import { sqlTimestamp } from "../time";
import { crmModule, table } from "../module";

export interface AddressRow extends Row, Timestamps {
  companyName: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  district: string;
  zip: string;
  /** 2-character country code. */
  country: string;
  allgroup: string;
  isDefault: 0 | 1;
}

/** An address associated with a user group (addressGroups) or a list (addressLists). */
export interface AddressAssociationRow extends Row {
  addressId: string;
  /** The group id or the list id. */
  targetId: string;
}

export const addressesModule = crmModule({
  tables: { addresses: table<AddressRow>(), addressGroups: table<AddressAssociationRow>(), addressLists: table<AddressAssociationRow>() },
  routes: addressRoutes,
});

/** Request spellings of each stored field: snake_case per the parameter list, camelCase per the update example. */
const REQUEST_NAMES = {
  companyName: ["company_name", "companyName"],
  address1: ["address_1", "address1"],
  address2: ["address_2", "address2"],
  city: ["city"],
  state: ["state"],
  district: ["district"],
  zip: ["zip"],
  country: ["country"],
  allgroup: ["allgroup"],
  isDefault: ["is_default", "isDefault"],
} as const;
type AddressField = keyof typeof REQUEST_NAMES;
const REQUIRED: AddressField[] = ["companyName", "address1", "country"];
const ASSOCIATIONS = [
  { field: "groupid", table: "addressGroups" },
  { field: "listid", table: "addressLists" },
] as const;

function addressRoutes(crm: CrmContext): Route[] {
  const { addresses, addressGroups, addressLists } = crm.tables;

  const kind = crm.kinds.register<AddressRow>({
    singular: "address",
    plural: "addresses",
    present: (row, req) => ({
      companyName: row.companyName,
      address1: row.address1,
      address2: row.address2,
      city: row.city,
      state: row.state,
      district: row.district,
      zip: row.zip,
      country: row.country,
      allgroup: row.allgroup,
      isDefault: String(row.isDefault),
      // Snake_case and naive account-local time, unlike most resources.
      created_timestamp: sqlTimestamp(row.createdMs),
      updated_timestamp: sqlTimestamp(row.updatedMs),
      created_by: "1",
      updated_by: "1",
      links: linksOf(req, "addresses", row.id, ["addressGroup", "addressList", "forms"]),
      id: row.id,
    }),
  });

  const find = (id: string): AddressRow => orNoResult(addresses.get(id), "Address", id);

  /** The fields the request sets, by stored name, under whichever spelling it used. */
  const sentFields = (attrs: Attributes): Partial<Record<AddressField, string>> => {
    const sent: Partial<Record<AddressField, string>> = {};
    for (const [field, names] of Object.entries(REQUEST_NAMES) as Array<[AddressField, readonly string[]]>) {
      const name = names.find((n) => attrs[n] !== undefined);
      if (name === undefined) continue;
      const value = field === "isDefault" ? String(flagOf(attrs[name])) : (optionalString(attrs, name) ?? "");
      if (REQUIRED.includes(field) && value.trim() === "") throw unprocessable(fieldError("field_missing", name, `The ${name} field is required.`));
      if (field === "country" && !/^[A-Za-z]{2}$/.test(value)) {
        throw unprocessable(fieldError("field_invalid", name, "The country must be a 2-character country code."));
      }
      sent[field] = field === "country" ? value.toUpperCase() : value;
    }
    return sent;
  };

  const apply = (row: AddressRow, sent: Partial<Record<AddressField, string>>): void => {
    const { isDefault, ...text } = sent;
    Object.assign(row, text);
    if (isDefault !== undefined) {
      row.isDefault = flagOf(isDefault);
      // One default address per account.
      if (row.isDefault === 1) for (const other of addresses.where((a) => a.id !== row.id)) other.isDefault = 0;
    }
  };

  /** groupid associates the address with a user group; listid (emulator extension) with a list. */
  const associationsOf = (attrs: Attributes): Array<[Table<AddressAssociationRow>, string]> =>
    ASSOCIATIONS.filter(({ field }) => attrs[field] !== undefined).map(({ field, table }) => {
      const targetId = idOf(attrs[field]);
      if (targetId === null) throw unprocessable(fieldError("field_invalid", field, `The ${field} must be an integer id.`));
      return [crm.tables[table], targetId];
    });

  const associate = (row: AddressRow, associations: Array<[Table<AddressAssociationRow>, string]>): void => {
    for (const [table, targetId] of associations) {
      if (!table.find((a) => a.addressId === row.id && a.targetId === targetId)) table.insert({ addressId: row.id, targetId });
    }
  };

  const associationKind = (table: "addressGroups" | "addressLists", targetName: string) =>
    crm.kinds.register<AddressAssociationRow>({
      singular: table.slice(0, -1),
      plural: table,
      present: (row) => ({ addressid: row.addressId, [targetName]: row.targetId, id: row.id }),
    });
  const groupKind = associationKind("addressGroups", "groupid");
  const listKind = associationKind("addressLists", "listid");

  const deleteAssociation = (table: Table<AddressAssociationRow>, recordType: string) => (req: CrmRequest) => {
    const association = orNoResult(table.get(req.params.id), recordType, req.params.id);
    table.delete(association.id);
    return ok({});
  };

  return [
    {
      method: "POST",
      pattern: "/addresses",
      handle: (req) => {
        const attrs = attributesOf(req, "address");
        const sent = sentFields(attrs);
        const associations = associationsOf(attrs);
        const missing = REQUIRED.find((field) => sent[field] === undefined);
        if (missing) throw unprocessable(fieldError("field_missing", REQUEST_NAMES[missing][0], `The ${REQUEST_NAMES[missing][0]} field is required.`));
        // The account's first address becomes its default unless the request says otherwise.
        if (sent.isDefault === undefined && addresses.all().length === 0) sent.isDefault = "1";
        const now = crm.now();
        const row = addresses.insert({
          companyName: "",
          address1: "",
          address2: "",
          city: "",
          state: "",
          district: "",
          zip: "",
          country: "",
          allgroup: "0",
          isDefault: 0,
          createdMs: now,
          updatedMs: now,
        });
        apply(row, sent);
        associate(row, associations);
        // The create response (201) echoes only the fields sent, plus isDefault, with the country as the service's numeric id.
        const presented = kind.present(row, req, "single");
        const echoed: Attributes = {};
        for (const field of Object.keys(sent)) echoed[field] = presented[field];
        return created({ address: { ...echoed, isDefault: presented.isDefault, country: numericCountry(row.country), links: presented.links, id: row.id } });
      },
    },
    listRoute(crm, kind, () => addresses.all()),
    readRoute(crm, kind, find),
    {
      method: "PUT",
      pattern: "/addresses/:id",
      handle: (req) => {
        const row = find(req.params.id);
        const attrs = attributesOf(req, "address");
        const sent = sentFields(attrs);
        const associations = associationsOf(attrs);
        apply(row, sent);
        associate(row, associations);
        row.updatedMs = crm.now();
        // The answer repeats flags in the type they were sent in (isDefault: 0), where a GET answers "0".
        const document = crm.kinds.one(req, kind, row);
        const answered = document.address as Attributes;
        for (const field of ["isDefault", "allgroup"] as const) {
          const name = REQUEST_NAMES[field].find((n) => attrs[n] !== undefined);
          if (name !== undefined) answered[field] = attrs[name];
        }
        return ok(document);
      },
    },
    deleteRoute(kind, find, (row) => {
      for (const table of [addressGroups, addressLists]) for (const a of table.where((a) => a.addressId === row.id)) table.delete(a.id);
      addresses.delete(row.id);
    }),
    {
      method: "GET",
      pattern: "/addresses/:id/addressGroup",
      handle: (req) =>
        ok(
          crm.kinds.list(
            req,
            groupKind,
            addressGroups.where((a) => a.addressId === find(req.params.id).id),
          ),
        ),
    },
    {
      method: "GET",
      pattern: "/addresses/:id/addressList",
      handle: (req) =>
        ok(
          crm.kinds.list(
            req,
            listKind,
            addressLists.where((a) => a.addressId === find(req.params.id).id),
          ),
        ),
    },
    ...linkRoutes("addresses", find, { forms: null }),
    { method: "DELETE", pattern: "/addressGroups/:id", handle: deleteAssociation(addressGroups, "AddressGroup") },
    { method: "DELETE", pattern: "/addressLists/:id", handle: deleteAssociation(addressLists, "AddressList") },
  ];
}

/** The service answers an internal country row id on create; any stable number per code will do. */
export function numericCountry(code: string): number {
  return (code.charCodeAt(0) - 65) * 26 + (code.charCodeAt(1) - 65) + 1;
}
