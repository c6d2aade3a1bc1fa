import { noResultFound, attributesOf, type CrmRequest } from "../api";
import { collection, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { userLink } from "./shared";
import type { AccountRow } from "../state";

/** Owner types the service reports for each reltype of a note. */
const OWNER_TYPES: Record<string, string> = { CustomerAccount: "account", Subscriber: "contact" };

export function noteRoutes(crm: CrmContext): Route[] {
  const { accounts } = crm.tables;
  const notes = collection<CollectionRow>(crm, {
    singular: "note",
    plural: "notes",
    record: "Note",
    table: crm.tables.notes,
    createStatus: 201,
    fields: {
      note: { required: "The note was not provided." },
      relid: { form: id, required: true },
      reltype: { required: true, allowed: ["Activity", "Deal", "DealTask", "Subscriber", "CustomerAccount"] },
    },
    constants: { user: "1", userid: "1" },
    timestamps: { cdate: "created", mdate: "updated" },
    links: { activities: null, mentions: null, notes: null, owner: null, user: userLink },
    hooks: { members: (row) => ({ owner: { id: row.relid, type: OWNER_TYPES[String(row.reltype)] ?? String(row.reltype).toLowerCase() } }) },
  });

  const findAccount = (accountId: string): AccountRow => {
    const account = accounts.get(accountId);
    if (!account) throw noResultFound("Account", accountId);
    return account;
  };

  /** Account note writes answer the note together with its account. */
  const withAccount = (req: CrmRequest, account: AccountRow, note: CollectionRow, status: number) => {
    const { body } = notes.written(req, note, {});
    return { status, body: { accounts: [crm.kinds.get("accounts").present(account, req, "single")], ...(body as object) } };
  };

  return [
    {
      method: "POST",
      pattern: "/accounts/:id/notes",
      handle: (req) => {
        const account = findAccount(req.params.id);
        return withAccount(req, account, notes.create(attributesOf(req, "note"), { relid: account.id, reltype: "CustomerAccount" }), 201);
      },
    },
    {
      method: "PUT",
      pattern: "/accounts/:id/notes/:noteid",
      handle: (req) => {
        const account = findAccount(req.params.id);
        const note = notes.find(req.params.noteid);
        if (note.reltype !== "CustomerAccount" || note.relid !== account.id) throw noResultFound("Note", note.id);
        // Only its text: the note stays the account's.
        const { note: text } = attributesOf(req, "note");
        return withAccount(req, account, notes.update(note, text === undefined ? {} : { note: text }), 200);
      },
    },
    ...notes.routes,
  ];
}
