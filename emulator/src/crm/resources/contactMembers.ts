import { ApiError, attributesOf, fieldError, idOf, isObject, ok, unprocessable, type CrmRequest } from "../api";
import { equals } from "../collections";
import { collection, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import type { ContactRow } from "../state";
import { sqlTimestamp } from "../time";
import { crmModule, table } from "../module";
import { tagCollection } from "./tags";

export const contactMembersModule = crmModule({
  // Indexed by the contact: every contact a list answers reads its values.
  tables: {
    contactTags: table<CollectionRow>({ keyOf: ofContact }),
    contactLists: table<CollectionRow>({ keyOf: ofContact }),
    fieldValues: table<CollectionRow>({ keyOf: ofContact }),
  },
  routes: (crm) => crm.shared(contactMembers).routes,
});

/** A contact's custom field value: the field's id and its value as sent ("||a||b||" for several). */
export interface FieldValueWrite {
  field: string;
  value: string;
}

export interface ContactMembers {
  routes: Route[];
  /** Checks [{field, value}] (the contacts' fieldValues; the bulk import's fields as {id, value}) before anything is written. */
  checkFieldValues(items: unknown, member: string): FieldValueWrite[];
  /** Stores each value on the contact, replacing the one it had for the field. */
  setFieldValues(contact: ContactRow, writes: FieldValueWrite[]): void;
  /** Adds each tag (by name, made as a contact tag when none has it) the contact lacks; tags are never removed this way. */
  addTags(contact: ContactRow, names: string[]): void;
  /** Subscribes (status 1) or unsubscribes (status 2) the contact on each list. */
  setListStatus(contact: ContactRow, listIds: string[], status: "1" | "2"): void;
  /** The contact's values, lists, tags as a contact's read answers them. */
  membersOf(contact: ContactRow, req: CrmRequest): { fieldValues: unknown[]; contactLists: unknown[] };
}

/** The key of what belongs to one contact. */
export function ofContact(row: CollectionRow): string {
  return String(row.contact);
}

/** withKey answers in no particular order; answers list in the order made. */
export function byCreation<T extends { id: string }>(rows: T[]): T[] {
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** A contact's tags, lists and values, one per account (crm.shared(contactMembers)): the contacts and the bulk import write them. */
export function contactMembers(crm: CrmContext): ContactMembers {
  const { contacts, tags, lists, fields, contactTags, contactLists, fieldValues } = crm.tables;
  const present = (plural: string, row: { id: string } | undefined, req: CrmRequest) => crm.kinds.relatedOne(req, plural, row);
  /** The reference's 404 of a contact tag naming what it did not find. */
  const notFound = (what: string) => new ApiError({ status: 404, body: { errors: [{ status: 404, title: "Not Found", detail: `${what} not found` }] } });

  const tagged = collection<CollectionRow>(crm, {
    singular: "contactTag",
    plural: "contactTags",
    record: "SubscriberTag",
    table: contactTags,
    createStatus: 201,
    operations: ["create", "delete"],
    fields: { contact: { form: id, required: "The contact field is required." }, tag: { form: id, required: "The tag field is required." } },
    timestamps: { cdate: "created" },
    links: {
      contact: (row, req) => present("contacts", contacts.get(String(row.contact)), req),
      tag: (row, req) => present("tags", tags.get(String(row.tag)), req),
    },
    hooks: {
      check(draft) {
        if (!contacts.get(String(draft.contact))) throw notFound("Contact");
        if (!tags.get(String(draft.tag))) throw notFound("Tag");
        if (contactTags.withKey(String(draft.contact)).some((row) => row.tag === draft.tag)) {
          throw unprocessable(fieldError("duplicate", "tag", "The contact already has this tag."));
        }
      },
    },
  });

  const subscriptions = collection<CollectionRow>(crm, {
    singular: "contactList",
    plural: "contactLists",
    record: "SubscriberList",
    table: contactLists,
    createStatus: 200,
    // Written only by POST /contactLists below (subscribe or unsubscribe, whichever the membership was) and the bulk import.
    operations: [],
    fields: {
      contact: { form: id, required: "The contact field is required." },
      list: { form: id, required: "The list field is required." },
      status: { required: "The status field is required.", allowed: ["1", "2"] },
      sourceid: { default: "0" },
    },
    constants: { form: null, seriesid: "0", responder: "1", sync: "0", unsubreason: "", campaign: null, message: null, ip4Sub: "0", autosyncLog: null },
    timestamps: { sdate: "created", udate: "updated" },
    links: {
      automation: null,
      list: (row, req) => present("lists", lists.get(String(row.list)), req),
      contact: (row, req) => present("contacts", contacts.get(String(row.contact)), req),
      form: null,
      autosyncLog: null,
      campaign: null,
      unsubscribeAutomation: null,
      message: null,
    },
    hooks: {
      check(draft) {
        if (!contacts.get(String(draft.contact))) throw unprocessable(fieldError("field_invalid", "contact", `No contact with id ${draft.contact}.`));
        if (!lists.get(String(draft.list))) throw unprocessable(fieldError("field_invalid", "list", `No list with id ${draft.list}.`));
      },
      members(row) {
        const contact = contacts.get(String(row.contact));
        return {
          first_name: contact?.firstName ?? "",
          last_name: contact?.lastName ?? "",
          ip4_last: "0",
          ip4Unsub: "0",
          created_timestamp: sqlTimestamp(row.createdMs),
          updated_timestamp: sqlTimestamp(row.updatedMs),
          created_by: null,
          updated_by: null,
          unsubscribeAutomation: null,
          automation: null,
        };
      },
    },
  });

  const values = collection<CollectionRow>(crm, {
    singular: "fieldValue",
    plural: "fieldValues",
    record: "FieldValue",
    table: fieldValues,
    createStatus: 200,
    // Also written with a contact (its fieldValues) and by the bulk import (its fields); POST /fieldValues below.
    operations: ["list", "read", "update", "delete"],
    fields: { contact: { form: id, required: true }, field: { form: id, required: true }, value: {} },
    constants: { created_by: "0", updated_by: "0" },
    timestamps: { cdate: "created", udate: "updated" },
    links: {
      owner: (row, req) => present("contacts", contacts.get(String(row.contact)), req),
      field: (row, req) => present("fields", fields.get(String(row.field)), req),
    },
    list: { filters: { fieldid: equals("field"), val: equals("value") } },
    hooks: {
      check(draft, existing) {
        if (!contacts.get(String(draft.contact))) throw unprocessable(fieldError("field_invalid", "contact", `No contact with id ${draft.contact}.`));
        if (!fields.get(String(draft.field))) throw unprocessable(fieldError("field_invalid", "field", `No custom field with id ${draft.field}.`));
        const taken = fieldValues.withKey(String(draft.contact)).some((row) => row.field === draft.field && row.id !== existing?.id);
        if (taken) throw unprocessable(fieldError("duplicate", "field", `Contact ${draft.contact} already has a value for field ${draft.field}.`));
      },
      members: (row) => ({ owner: row.contact }),
      // Writes answer the value with its contact, and its ids as numbers, as the reference's examples do.
      written(document, row, _attrs, req) {
        const ids = { contact: Number(row.contact), field: Number(row.field), owner: Number(row.contact) };
        const contact = crm.kinds.get("contacts").present(contacts.get(String(row.contact))!, req, "list");
        return { contacts: [contact], fieldValue: { ...(document.fieldValue as object), ...ids } };
      },
    },
  });

  /** POST /fieldValues: the contact's value of the field, made or (when it has one) changed. */
  const postFieldValue = (req: CrmRequest) => {
    const attrs = attributesOf(req, "fieldValue");
    const existing = fieldValues.withKey(String(idOf(attrs.contact))).find((row) => row.field === idOf(attrs.field));
    return values.written(req, existing ? values.update(existing, attrs) : values.create(attrs), attrs);
  };

  /** POST /contactLists: the membership's status, made or changed; answered with the contact, as the reference shows. */
  const postContactList = (req: CrmRequest) => {
    const attrs = attributesOf(req, "contactList");
    const existing = contactLists.withKey(String(attrs.contact)).find((row) => row.list === String(attrs.list));
    const row = existing ? subscriptions.update(existing, attrs) : subscriptions.create(attrs);
    const contact = contacts.get(String(row.contact))!;
    return ok({ contacts: [crm.kinds.get("contacts").present(contact, req, "list")], ...crm.kinds.one(req, subscriptions.kind, row) });
  };

  const members: ContactMembers = {
    routes: [
      ...tagged.routes,
      { method: "POST", pattern: "/contactLists", handle: postContactList },
      ...subscriptions.routes,
      { method: "POST", pattern: "/fieldValues", handle: postFieldValue },
      ...values.routes,
    ],
    checkFieldValues(items, member) {
      if (items === undefined) return [];
      if (!Array.isArray(items) || !items.every(isObject))
        throw unprocessable(fieldError("field_invalid", member, `The ${member} attribute must be an array of {field, value} objects.`));
      return items.map((item, index) => {
        const fieldId = String(item.field ?? item.id ?? "");
        if (!fields.get(fieldId))
          throw unprocessable(fieldError("field_invalid", `${member}/${index}/field`, `No custom field with id ${fieldId || "(none)"}.`));
        const value = Array.isArray(item.value) ? `||${item.value.join("||")}||` : item.value === undefined || item.value === null ? "" : String(item.value);
        return { field: fieldId, value };
      });
    },
    setFieldValues(contact, writes) {
      for (const write of writes) {
        const existing = fieldValues.withKey(contact.id).find((row) => row.field === write.field);
        if (existing) values.update(existing, { value: write.value });
        else values.create({ contact: contact.id, ...write });
      }
    },
    addTags(contact, names) {
      for (const name of names.map((n) => n.trim()).filter(Boolean)) {
        const tag =
          tags.find((row) => row.tagType === "contact" && String(row.tag).toLowerCase() === name.toLowerCase()) ??
          crm.shared(tagCollection).create({ tag: name, tagType: "contact" });
        if (!contactTags.withKey(contact.id).some((row) => row.tag === tag.id)) tagged.create({ contact: contact.id, tag: tag.id });
      }
    },
    setListStatus(contact, listIds, status) {
      for (const listId of listIds) {
        const existing = contactLists.withKey(contact.id).find((row) => row.list === listId);
        if (existing) subscriptions.update(existing, { status });
        else subscriptions.create({ contact: contact.id, list: listId, status });
      }
    },
    membersOf(contact, req) {
      const of = (plural: string, rows: CollectionRow[]) => rows.map((row) => crm.kinds.get(plural).present(row, req, "list"));
      return {
        fieldValues: of("fieldValues", byCreation(fieldValues.withKey(contact.id))),
        contactLists: of("contactLists", byCreation(contactLists.withKey(contact.id))),
      };
    },
  };
  return members;
}
