import { createHash } from "node:crypto";
import { attributesOf, created, fieldError, orNoResult, ok, optionalString, requiredString, unprocessable, type Attributes, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { byCreation, contactMembers, type FieldValueWrite } from "./contactMembers";
import { deleteRoute, linkRoute, linksOf, listRoute } from "./shared";
import type { AccountRow, ContactRow } from "../state";
import { accountTimeOf, isoTimestamp, sqlTimestamp } from "../time";
import { crmModule, table } from "../module";

export const contactsModule = crmModule({ tables: { contacts: table<ContactRow>() }, routes: contactRoutes });

/**
 * A contact's links, in the service's order: the reference's sub-collections of a contact
 * (GET /contacts/{id}/<name>) that the emulator serves. contactAutomations, contactLists,
 * fieldValues, notes, organization and accountContacts answer what it holds; the others are of
 * things it keeps none of (goals, deals, logs) and answer an empty collection.
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
const HELD_CONTACT_LINKS = new Set(["contactAutomations", "contactLists", "fieldValues", "notes", "organization", "accountContacts"]);

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

/**
 * What the reference's contact examples carry that the emulator neither writes nor tracks;
 * dates never set as the service writes them, "0000-00-00" (REAL-WORLD.md: empty).
 */
const CONTACT_SETTINGS = {
  segmentio_id: "",
  bounced_hard: "0",
  bounced_soft: "0",
  bounced_date: "0000-00-00",
  ip: "0",
  ua: "",
  socialdata_lastcheck: "0000-00-00 00:00:00",
  email_local: "",
  email_domain: "",
  sentcnt: "0",
  rating_tstamp: "0000-00-00",
  gravatar: "0",
  adate: "0000-00-00 00:00:00",
  edate: "0000-00-00 00:00:00",
  deleted_at: "0000-00-00 00:00:00",
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/** Contacts: enough to associate them with accounts, sync them by email, and keep their field values, lists and tags. */
function contactRoutes(crm: CrmContext): Route[] {
  const { contacts, accountContacts, accounts, notes, contactLists, contactTags, fieldValues, contactAutomations } = crm.tables;
  const members = crm.shared(contactMembers);

  /** The account the contact belongs to (a contact belongs to one at most), the deprecated "organization". */
  const accountOf = (contact: ContactRow): AccountRow | undefined => {
    const association = accountContacts.find((ac) => ac.contact === contact.id);
    return association && accounts.get(association.account);
  };

  /** {contactAutomations: [...]}: the contact's enrolments, as GET /contacts/{id} and its link answer them. */
  const enrolmentsOf = (contact: ContactRow, req: CrmRequest) =>
    crm.kinds.relatedMany(req, "contactAutomations", byCreation(contactAutomations.withKey(contact.id)));

  const kind = crm.kinds.register<ContactRow>({
    singular: "contact",
    plural: "contacts",
    present: (row, req, view) => {
      const account = accountOf(row);
      return {
        ...CONTACT_SETTINGS,
        created_utc_timestamp: sqlTimestamp(row.createdMs, "UTC"),
        updated_utc_timestamp: sqlTimestamp(row.updatedMs, "UTC"),
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
        // Ids of the contact's custom field values, and alone (not in a list, where the scans would add up) of what else it has.
        fieldValues: byCreation(fieldValues.withKey(row.id)).map((value) => value.id),
        ...(view === "single"
          ? {
              contactAutomations: byCreation(contactAutomations.withKey(row.id)).map((ca) => ca.id),
              contactLists: byCreation(contactLists.withKey(row.id)).map((cl) => cl.id),
              geoIps: [],
              deals: [],
              accountContacts: accountContacts.where((ac) => ac.contact === row.id).map((ac) => ac.id),
            }
          : {}),
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
   * through. The emulator keeps no forms, segments or automation waits, so no contact is in any
   * of them; seriesid is the automation the contact is enrolled in.
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
    const inNothingKept = ["formid", "segmentid", "waitid"].some((name) => q.has(name));
    if (inNothingKept) return () => false;
    const seriesId = q.get("seriesid");
    const enrolled = (c: ContactRow) => seriesId === null || contactAutomations.withKey(c.id).some((ca) => ca.automation === seriesId);
    // -1, the default, is any status; another is the contact's status on a list (listid's, or any).
    const [listId, tagId, status] = [q.get("listid"), q.get("tagid"), q.get("status") ?? "-1"];
    const onList = (c: ContactRow) =>
      (listId === null && status === "-1") ||
      contactLists.withKey(c.id).some((cl) => (listId === null || cl.list === listId) && (status === "-1" || cl.status === status));
    const tagged = (c: ContactRow) => tagId === null || contactTags.withKey(c.id).some((ct) => ct.tag === tagId);
    return (c: ContactRow): boolean =>
      (ids.length === 0 || ids.includes(c.id)) &&
      (email === undefined || c.email.toLowerCase() === email) &&
      (emailLike === undefined || c.email.toLowerCase().includes(emailLike)) &&
      (search === undefined ||
        [c.firstName, c.lastName, `${c.firstName} ${c.lastName}`, c.phone, c.email].some((field) => field.toLowerCase().includes(search))) &&
      exclude !== c.id &&
      (idGreater === undefined || Number(c.id) > idGreater) &&
      (idLess === undefined || Number(c.id) < idLess) &&
      (organization === null || accountContacts.find((ac) => ac.contact === c.id)?.account === organization) &&
      (createdBefore === undefined || c.createdMs < createdBefore) &&
      (createdAfter === undefined || c.createdMs > createdAfter) &&
      (updatedBefore === undefined || c.updatedMs < updatedBefore) &&
      (updatedAfter === undefined || c.updatedMs > updatedAfter) &&
      onList(c) &&
      tagged(c) &&
      enrolled(c);
  };

  /** A write's answer: the values sent stored, then {fieldValues, contact} with every value the contact holds, as the reference. */
  const withFieldValues = (req: CrmRequest, contact: ContactRow, values: FieldValueWrite[]) => {
    members.setFieldValues(contact, values);
    return { fieldValues: members.membersOf(contact, req).fieldValues, ...crm.kinds.one(req, kind, contact) };
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
        const values = members.checkFieldValues(attrs.fieldValues, "fieldValues");
        return created(withFieldValues(req, upsertContact(crm, { ...attrs, email }).contact, values));
      },
    },
    {
      method: "POST",
      pattern: "/contact/sync",
      handle: (req) => {
        const attrs = attributesOf(req, "contact");
        const email = validEmail(attrs);
        const values = members.checkFieldValues(attrs.fieldValues, "fieldValues");
        const { contact, isNew } = upsertContact(crm, { ...attrs, email });
        const document = withFieldValues(req, contact, values);
        return isNew ? created(document) : ok(document);
      },
    },
    listRoute(crm, kind, (req) => contacts.where(matchesQuery(req)), { orderValue: (c, field) => CONTACT_ORDERS[field]?.(c) }),
    {
      method: "GET",
      pattern: "/contacts/:id",
      // The reference's example: the contact with its automations, lists, deals, field values and geography.
      handle: (req) => {
        const contact = find(req.params.id);
        const held = members.membersOf(contact, req);
        const beside = { contactLists: held.contactLists, deals: [], fieldValues: held.fieldValues, geoAddresses: [], geoIps: [] };
        return ok({ ...enrolmentsOf(contact, req), ...beside, ...crm.kinds.one(req, kind, contact) });
      },
    },
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
        const values = members.checkFieldValues(attrs.fieldValues, "fieldValues");
        changeContact(contact, { ...attrs, email }, crm.now());
        return ok(withFieldValues(req, contact, values));
      },
    },
    ...CONTACT_LINKS.filter((name) => !HELD_CONTACT_LINKS.has(name)).map((name) => linkRoute("contacts", name, find, () => ({ [name]: [] }))),
    linkRoute("contacts", "contactAutomations", find, enrolmentsOf),
    linkRoute("contacts", "contactLists", find, (contact, req) => ({ contactLists: members.membersOf(contact, req).contactLists })),
    linkRoute("contacts", "fieldValues", find, (contact, req) => ({ fieldValues: members.membersOf(contact, req).fieldValues })),
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
      notes.deleteWhere((n) => n.reltype === "Subscriber" && n.relid === contact.id);
      for (const table of [contactLists, contactTags, fieldValues, contactAutomations]) for (const row of table.withKey(contact.id)) table.delete(row.id);
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
