import { created, fieldError, orNoResult, ok, requiredString, optionalString, unprocessable, attributesOf, idOf, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Document } from "../kinds";
import { checkAccountFields, saveAccountFields, type FieldValueWrite } from "./customFields";
import type { Route } from "../router";
import { deleteRoute, linkRoute, linksOf, listRoute, readRoute } from "./shared";
import type { AccountRow } from "../state";
import { isoTimestamp } from "../time";
import { crmModule, table } from "../module";

/** The key account names are compared by: the service's collation ignores case. */
function accountNameKey(account: { name: string }): string {
  return account.name.toLowerCase();
}

export const accountsModule = crmModule({
  // Account names are unique regardless of case: indexed so a create need not scan every account.
  tables: { accounts: table<AccountRow>({ keyOf: accountNameKey }) },
  routes: accountRoutes,
});

function accountRoutes(crm: CrmContext): Route[] {
  const { accounts, accountContacts, fieldData, notes } = crm.tables;

  const kind = crm.kinds.register<AccountRow>({
    singular: "account",
    plural: "accounts",
    present: (row, req, view) => {
      const base = {
        name: row.name,
        accountUrl: row.accountUrl,
        createdTimestamp: isoTimestamp(row.createdMs),
        updatedTimestamp: isoTimestamp(row.updatedMs),
      };
      // The service answers an empty links array for a single account, counts and links in lists.
      if (view === "single") return { ...base, links: [], id: row.id };
      return {
        ...base,
        contactCount: String(accountContacts.where((ac) => ac.account === row.id).length),
        dealCount: "0",
        links: linksOf(req, "accounts", row.id, ["notes", "accountCustomFieldData", "accountContacts"]),
        id: row.id,
      };
    },
    relations: {
      accountContacts: { kind: "accountContacts", many: true, related: (row) => accountContacts.where((ac) => ac.account === row.id) },
      accountCustomFieldData: { kind: "accountCustomFieldData", many: true, related: (row) => fieldData.where((d) => d.accountId === row.id) },
      notes: { kind: "notes", many: true, related: (row) => notesOf(row.id) },
    },
  });

  const notesOf = (accountId: string) => notes.where((n) => n.reltype === "CustomerAccount" && n.relid === accountId);

  const find = (id: string): AccountRow => orNoResult(accounts.get(id), "Account", id);

  /** Names are unique regardless of case, as the service's collation compares them. */
  const checkNameFree = (name: string, exceptId?: string): void => {
    const taken = accounts.withKey(accountNameKey({ name })).some((a) => a.id !== exceptId);
    if (taken) throw unprocessable(fieldError("duplicate", "name", `An account with the name "${name}" already exists.`));
  };

  const remove = (account: AccountRow): void => {
    for (const ac of accountContacts.where((ac) => ac.account === account.id)) accountContacts.delete(ac.id);
    for (const datum of fieldData.where((d) => d.accountId === account.id)) fieldData.delete(datum.id);
    for (const note of notesOf(account.id)) notes.delete(note.id);
    accounts.delete(account.id);
  };

  /** Custom field values sent with the account are stored and echoed as `fields`, as the reference shows. */
  const withFields = (document: Document, account: AccountRow, fields: FieldValueWrite[]): Document => {
    if (fields.length > 0) (document.account as Document).fields = saveAccountFields(crm, account.id, fields);
    return document;
  };

  /** ids[]=1&ids[]=2, ids=1,2 and repeated ids= are all seen in the wild. */
  const bulkIds = (req: CrmRequest): string[] => {
    const raw = [...req.query.getAll("ids[]"), ...req.query.getAll("ids"), ...req.query.getAll("[]ids")];
    return raw
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter(Boolean);
  };

  return [
    {
      method: "POST",
      pattern: "/accounts",
      handle: (req) => {
        const attrs = attributesOf(req, "account");
        const name = requiredString(attrs, "name", "The account name was not provided.");
        checkNameFree(name);
        const fields = checkAccountFields(crm, attrs.fields);
        const now = crm.now();
        const account = accounts.insert({ name, accountUrl: optionalString(attrs, "accountUrl") ?? null, createdMs: now, updatedMs: now });
        return created(withFields(crm.kinds.one(req, kind, account), account, fields));
      },
    },
    listRoute(crm, kind, (req) => {
      const search = req.query.get("search")?.toLowerCase();
      return search ? accounts.where((a) => a.name.toLowerCase().includes(search)) : accounts.all();
    }),
    readRoute(crm, kind, find),
    {
      method: "PUT",
      pattern: "/accounts/:id",
      handle: (req) => {
        const account = find(req.params.id);
        const attrs = attributesOf(req, "account");
        // Everything is checked before anything changes, so a 422 leaves the account as it was.
        const name = attrs.name === undefined ? account.name : requiredString(attrs, "name", "The account name was not provided.");
        checkNameFree(name, account.id);
        const accountUrl = attrs.accountUrl === undefined ? account.accountUrl : (optionalString(attrs, "accountUrl") ?? null);
        const fields = checkAccountFields(crm, attrs.fields);
        accounts.update(account, { name, accountUrl, updatedMs: crm.now() });
        return ok(withFields(crm.kinds.one(req, kind, account), account, fields));
      },
    },
    deleteRoute(kind, find, remove),
    // Where a listed account's links lead: its notes, its custom field values (under the root key REAL-WORLD.md records) and its contacts.
    linkRoute("accounts", "notes", find, (account, req) => ({ notes: notesOf(account.id).map((n) => crm.kinds.get("notes").present(n, req, "list")) })),
    linkRoute("accounts", "accountCustomFieldData", find, (account, req) => ({
      customerAccountCustomFieldData: fieldData
        .where((d) => d.accountId === account.id)
        .map((d) => crm.kinds.get("accountCustomFieldData").present(d, req, "list")),
    })),
    linkRoute("accounts", "accountContacts", find, (account, req) => ({
      accountContacts: accountContacts.where((ac) => ac.account === account.id).map((ac) => crm.kinds.get("accountContacts").present(ac, req, "list")),
    })),
    {
      method: "DELETE",
      pattern: "/accounts/bulk_delete",
      handle: (req) => {
        const ids = bulkIds(req);
        if (ids.length === 0) throw unprocessable(fieldError("field_missing", "ids", "The ids parameter was not provided."));
        const invalid = ids.find((id) => idOf(id) === null);
        if (invalid !== undefined) throw unprocessable(fieldError("field_invalid", "ids", `"${invalid}" is not an account id.`));
        // Unknown ids are skipped: the service reports success for the batch as a whole.
        for (const id of ids) {
          const account = accounts.get(idOf(id)!);
          if (account) remove(account);
        }
        return ok({ meta: { success: true } });
      },
    },
  ];
}
