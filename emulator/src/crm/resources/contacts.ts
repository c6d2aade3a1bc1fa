import { createHash } from "node:crypto";
import { attributesOf, created, fieldError, orNoResult, ok, optionalString, requiredString, unprocessable, type Attributes, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linkRoute, linksOf, listRoute, readRoute } from "./shared";
import type { AccountRow, ContactRow } from "../state";
import { accountTimeOf, isoTimestamp } from "../time";

/**
 * A contact's links, in the service's order: the reference's sub-collections of a contact
 * (GET /contacts/{id}/<name>) that the emulator serves. notes, organization and
 * accountContacts answer what it holds; the others are of things it keeps none of (lists,
 * automations, deals, custom field values, logs) and answer an empty collection.
 * Left out rather than lead nowhere: contactData and plusAppend (single records it has
 * nothing for), contactDeals (its example answers deals beside the contact, and there are
 * none) and contactTags (not in the reference). organization is given only while the
 * contact belongs to an account.
 */
const CONTACT_LINKS = [
  "bounceLogs",
  "contactAutomations",
  "contactGoals",
  "contactLists",
  "contactLogs",
  "deals",
  "fieldValues",
  "geoIps",
  "notes",
  "organization",
  "trackingLogs",
  "scoreValues",
  "accountContacts",
  "automationEntryCounts",
];
const HELD_CONTACT_LINKS = new Set(["notes", "organization", "accountContacts"]);

/** The orders[...] the reference lists for the contact list, each by its stored value. */
const CONTACT_ORDERS: Record<string, (c: ContactRow) => unknown> = {
  id: (c) => c.id,
  cdate: (c) => c.createdMs,
  email: (c) => c.email,
  first_name: (c) => c.firstName,
  last_name: (c) => c.lastName,
  name: (c) => `${c.firstName} ${c.lastName}`,
};

/** A date filter's value (format date, or a time) as epoch milliseconds; 422 naming the filter when it is neither. */
function filterTime(value: string, filter: string): number {
  const ms = accountTimeOf(value);
  if (ms === undefined) throw unprocessable(fieldError("field_invalid", `filters[${filter}]`, `The ${filter} filter must be a date (YYYY-MM-DD) or a time.`));
  return ms;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/** Contacts: just enough to associate them with accounts and to sync them by email. */
export function contactRoutes(crm: CrmContext): Route[] {
  const { contacts, accountContacts, accounts, notes } = crm.tables;

  /** The account the contact belongs to (a contact belongs to one at most), the deprecated "organization". */
  const accountOf = (contact: ContactRow): AccountRow | undefined => {
    const association = accountContacts.find((ac) => ac.contact === contact.id);
    return association && accounts.get(association.account);
  };

  const kind = crm.kinds.register<ContactRow>({
    singular: "contact",
    plural: "contacts",
    present: (row, req) => {
      const account = accountOf(row);
      return {
        cdate: isoTimestamp(row.createdMs),
        email: row.email,
        email_empty: false,
        phone: row.phone,
        firstName: row.firstName,
        lastName: row.lastName,
        // The reference's examples: "0", "" and null without an account; its id and name with one.
        orgid: account?.id ?? "0",
        orgname: account?.name ?? "",
        deleted: "0",
        anonymized: "0",
        udate: isoTimestamp(row.updatedMs),
        links: linksOf(req, "contacts", row.id, account ? CONTACT_LINKS : CONTACT_LINKS.filter((name) => name !== "organization")),
        // The service's hash identifies the contact in tracking links; any stable digest will do.
        hash: createHash("md5").update(row.email.toLowerCase()).digest("hex"),
        // Ids of the contact's custom field values; the emulator stores none.
        fieldValues: [],
        id: row.id,
        organization: account?.id ?? null,
      };
    },
    relations: {
      accountContacts: { kind: "accountContacts", many: true, related: (row) => accountContacts.where((ac) => ac.contact === row.id) },
    },
  });

  const find = (id: string): ContactRow => orNoResult(contacts.get(id), "Subscriber", id);

  /**
   * The list's filters, as the reference describes them; meta.total counts what they let
   * through. The emulator keeps no lists, tags, forms, segments or automation memberships,
   * so no contact is in any of them.
   */
  const matchesQuery = (req: CrmRequest) => {
    const q = req.query;
    const ids = [...q.getAll("ids[]"), ...q.getAll("ids")];
    // An empty value filters nothing out.
    const text = (name: string) => q.get(name)?.toLowerCase() || undefined;
    const number = (name: string) => (q.has(name) ? Number(q.get(name)) : undefined);
    const [email, emailLike, search] = [text("email") ?? text("filters[email]"), text("email_like"), text("search")];
    const [createdBefore, createdAfter, updatedBefore, updatedAfter] = ["created_before", "created_after", "updated_before", "updated_after"].map((name) => {
      const value = q.get(`filters[${name}]`);
      return value === null ? undefined : filterTime(value, name);
    });
    const [exclude, idGreater, idLess, organization] = [q.get("exclude"), number("id_greater"), number("id_less"), q.get("organization")];
    const inNothingKept = ["listid", "formid", "segmentid", "seriesid", "tagid", "waitid"].some((name) => q.has(name));
    // -1, the default, is any status; every other is a status in a list, and no contact is in one.
    const status = q.get("status");
    if (inNothingKept || (status !== null && status !== "-1")) return () => false;
    return (c: ContactRow): boolean =>
      (ids.length === 0 || ids.includes(c.id)) &&
      (email === undefined || c.email.toLowerCase() === email) &&
      (emailLike === undefined || c.email.toLowerCase().includes(emailLike)) &&
      (search === undefined || [c.firstName, c.lastName, `${c.firstName} ${c.lastName}`, c.phone, c.email].some((field) => field.toLowerCase().includes(search))) &&
      exclude !== c.id &&
      (idGreater === undefined || Number(c.id) > idGreater) &&
      (idLess === undefined || Number(c.id) < idLess) &&
      (organization === null || accountContacts.find((ac) => ac.contact === c.id)?.account === organization) &&
      (createdBefore === undefined || c.createdMs < createdBefore) &&
      (createdAfter === undefined || c.createdMs > createdAfter) &&
      (updatedBefore === undefined || c.updatedMs < updatedBefore) &&
      (updatedAfter === undefined || c.updatedMs > updatedAfter);
  };

  const validEmail = (attrs: Attributes): string => {
    const email = requiredString(attrs, "email", "The contact email was not provided.").trim();
    if (!isEmail(email)) throw unprocessable(fieldError("field_invalid", "email", "Email address is not valid."));
    return email;
  };

  return [
    {
      method: "POST",
      pattern: "/contacts",
      handle: (req) => {
        const attrs = attributesOf(req, "contact");
        const email = validEmail(attrs);
        if (findContactByEmail(crm, email)) throw unprocessable(fieldError("duplicate", "email", "Email address already exists in the system"));
        return created({ fieldValues: [], ...crm.kinds.one(req, kind, upsertContact(crm, { ...attrs, email }).contact) });
      },
    },
    {
      method: "POST",
      pattern: "/contact/sync",
      handle: (req) => {
        const attrs = attributesOf(req, "contact");
        const { contact, isNew } = upsertContact(crm, { ...attrs, email: validEmail(attrs) });
        const document = { fieldValues: [], ...crm.kinds.one(req, kind, contact) };
        return isNew ? created(document) : ok(document);
      },
    },
    listRoute(crm, kind, (req) => contacts.where(matchesQuery(req)), { orderValue: (c, field) => CONTACT_ORDERS[field]?.(c) }),
    readRoute(crm, kind, find),
    {
      method: "PUT",
      pattern: "/contacts/:id",
      handle: (req) => {
        const contact = find(req.params.id);
        const attrs = attributesOf(req, "contact");
        // Partial, as the service's other updates: what is not sent stays. Checked before anything changes.
        const email = attrs.email === undefined ? contact.email : validEmail(attrs);
        const holder = findContactByEmail(crm, email);
        if (holder && holder.id !== contact.id) throw unprocessable(fieldError("duplicate", "email", "Email address already exists in the system"));
        changeContact(contact, { ...attrs, email }, crm.now());
        // The emulator keeps no custom field values: fieldValues sent are answered as none written.
        return ok({ fieldValues: [], ...crm.kinds.one(req, kind, contact) });
      },
    },
    ...CONTACT_LINKS.filter((name) => !HELD_CONTACT_LINKS.has(name)).map((name) => linkRoute("contacts", name, find, () => ({ [name]: [] }))),
    linkRoute("contacts", "notes", find, (contact, req) => ({
      notes: notes.where((n) => n.reltype === "Subscriber" && n.relid === contact.id).map((n) => crm.kinds.get("notes").present(n, req, "list")),
    })),
    linkRoute("contacts", "accountContacts", find, (contact, req) => ({
      accountContacts: accountContacts.where((ac) => ac.contact === contact.id).map((ac) => crm.kinds.get("accountContacts").present(ac, req, "list")),
    })),
    linkRoute("contacts", "organization", find, (contact) => {
      // The link is given only with an account; without one, nothing is there to answer.
      const account = orNoResult(accountOf(contact), "Organization", "0");
      // The reference's example: the account under its old name, timestamps with the offset.
      return {
        organization: {
          name: account.name,
          created_timestamp: isoTimestamp(account.createdMs),
          updated_timestamp: isoTimestamp(account.updatedMs),
          userid: "1",
          id: account.id,
          owner: "1",
        },
      };
    }),
    deleteRoute(kind, find, (contact) => {
      for (const ac of accountContacts.where((ac) => ac.contact === contact.id)) accountContacts.delete(ac.id);
      for (const note of notes.where((n) => n.reltype === "Subscriber" && n.relid === contact.id)) notes.delete(note.id);
      contacts.delete(contact.id);
    }),
  ];
}

export function findContactByEmail(crm: CrmContext, email: string): ContactRow | undefined {
  const wanted = email.toLowerCase();
  return crm.tables.contacts.find((c) => c.email.toLowerCase() === wanted);
}

/** Creates the contact with this email, or updates the one that has it (emails match regardless of case). */
export function upsertContact(crm: CrmContext, attrs: Attributes & { email: string }): { contact: ContactRow; isNew: boolean } {
  const now = crm.now();
  const existing = findContactByEmail(crm, attrs.email);
  if (existing) {
    // The address as it was: the match ignores case.
    changeContact(existing, { ...attrs, email: existing.email }, now);
    return { contact: existing, isNew: false };
  }
  const contact = crm.tables.contacts.insert({ email: attrs.email, firstName: "", lastName: "", phone: "", createdMs: now, updatedMs: now });
  changeContact(contact, attrs, now);
  return { contact, isNew: true };
}

/** Writes the email and whichever of the names (camelCase, or snake_case as the bulk import sends them) and phone are sent. */
function changeContact(contact: ContactRow, attrs: Attributes & { email: string }, now: number): void {
  const changes = {
    firstName: optionalString(attrs, "firstName") ?? optionalString(attrs, "first_name"),
    lastName: optionalString(attrs, "lastName") ?? optionalString(attrs, "last_name"),
    phone: optionalString(attrs, "phone"),
  };
  for (const [field, value] of Object.entries(changes)) if (value !== undefined) contact[field as keyof typeof changes] = value;
  contact.email = attrs.email;
  contact.updatedMs = now;
}
