import { attributesOf, created, fieldError, orNoResult, ok, optionalString, requiredId, unprocessable, type Attributes } from "../api";
import { equals } from "../collections";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linkRoutes, linksOf, listRoute } from "./shared";
import { listOf } from "../store";
import { isoTimestamp } from "../time";
import { crmModule, table } from "../module";
import type { Row } from "../store";
import type { Timestamps } from "../state";

export interface AccountContactRow extends Row, Timestamps {
  account: string;
  contact: string;
  jobTitle: string;
}

export const accountContactsModule = crmModule({ tables: { accountContacts: table<AccountContactRow>() }, routes: accountContactRoutes });

function accountContactRoutes(crm: CrmContext): Route[] {
  const { accountContacts, accounts, contacts } = crm.tables;

  const kind = crm.kinds.register<AccountContactRow>({
    singular: "accountContact",
    plural: "accountContacts",
    present: (row, req) => ({
      account: row.account,
      contact: row.contact,
      jobTitle: row.jobTitle,
      createdTimestamp: isoTimestamp(row.createdMs),
      updatedTimestamp: isoTimestamp(row.updatedMs),
      links: linksOf(req, "accountContacts", row.id, ["account", "contact"]),
      id: row.id,
    }),
    relations: {
      account: { kind: "accounts", many: false, related: (row) => listOf(accounts.get(row.account)) },
      contact: { kind: "contacts", many: false, related: (row) => listOf(contacts.get(row.contact)) },
    },
  });

  const find = (id: string): AccountContactRow => orNoResult(accountContacts.get(id), "CustomerAccountSubscriber", id);

  /** The account and contact must exist, and a contact belongs to one account at most. */
  const checkTarget = (accountId: string, contactId: string, exceptId?: string): void => {
    if (!accounts.get(accountId)) throw unprocessable(fieldError("field_invalid", "account", `No account with id ${accountId}`));
    if (!contacts.get(contactId)) throw unprocessable(fieldError("field_invalid", "contact", `No contact with id ${contactId}`));
    if (accountContacts.find((ac) => ac.contact === contactId && ac.id !== exceptId)) {
      // The reference's wording.
      throw unprocessable(
        fieldError(
          "field_invalid",
          "contact",
          "This contact is already associated with an account. We currently do not support contacts on multiple accounts.",
        ),
      );
    }
  };

  /** The create response echoes account and contact as the caller sent them (numbers in the reference). */
  const echoIds = (document: Record<string, unknown>, attrs: Attributes) => {
    const presented = document.accountContact as Record<string, unknown>;
    presented.account = attrs.account;
    presented.contact = attrs.contact;
    return document;
  };

  return [
    {
      method: "POST",
      pattern: "/accountContacts",
      handle: (req) => {
        const attrs = attributesOf(req, "accountContact");
        const account = requiredId(attrs, "account");
        const contact = requiredId(attrs, "contact");
        checkTarget(account, contact);
        const now = crm.now();
        const row = accountContacts.insert({ account, contact, jobTitle: optionalString(attrs, "jobTitle") ?? "", createdMs: now, updatedMs: now });
        return created(echoIds(crm.kinds.one(req, kind, row), attrs));
      },
    },
    listRoute(crm, kind, () => accountContacts.all(), { filters: { contact: equals("contact"), account: equals("account") } }),
    { method: "GET", pattern: "/accountContacts/:id", handle: (req) => ok({ ...crm.kinds.one(req, kind, find(req.params.id)), meta: {} }) },
    {
      method: "PUT",
      pattern: "/accountContacts/:id",
      handle: (req) => {
        const row = find(req.params.id);
        const attrs = attributesOf(req, "accountContact");
        // The parameter list marks account and contact required; the example sends only jobTitle.
        const account = attrs.account === undefined ? row.account : requiredId(attrs, "account");
        const contact = attrs.contact === undefined ? row.contact : requiredId(attrs, "contact");
        checkTarget(account, contact, row.id);
        Object.assign(row, { account, contact, jobTitle: optionalString(attrs, "jobTitle") ?? row.jobTitle, updatedMs: crm.now() });
        return ok(crm.kinds.one(req, kind, row));
      },
    },
    deleteRoute(kind, find, (row) => accountContacts.delete(row.id)),
    ...linkRoutes("accountContacts", find, {
      account: (row, req) => ({ account: crm.kinds.get("accounts").present(orNoResult(accounts.get(row.account), "Account", row.account), req, "single") }),
      contact: (row, req) => ({ contact: crm.kinds.get("contacts").present(orNoResult(contacts.get(row.contact), "Subscriber", row.contact), req, "single") }),
    }),
  ];
}
