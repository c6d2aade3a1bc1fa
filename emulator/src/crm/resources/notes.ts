import { noResultFound, attributesOf, type Attributes } from "../api";
import { collection, id, type CollectionRow } from "../collection";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { userLink } from "./shared";
import type { AccountRow } from "../state";
import { crmModule, table } from "../module";

export const notesModule = crmModule({ tables: { notes: table<CollectionRow>() }, routes: noteRoutes });

/** The collections a note's owner is in, by reltype: its owner's type is the collection's singular ("account"). */
const OWNER_COLLECTIONS: Record<string, "accounts" | "contacts"> = { CustomerAccount: "accounts", Subscriber: "contacts" };

function noteRoutes(crm: CrmContext): Route[] {
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
    hooks: {
      members(row) {
        const owner = OWNER_COLLECTIONS[String(row.reltype)];
        return { owner: { id: row.relid, type: owner ? crm.kinds.get(owner).singular : String(row.reltype).toLowerCase() } };
      },
      // A write answers the note with its account or contact, as the reference's examples do.
      // The relid is answered in the type it was sent in (a number in the reference's example).
      written(document, row, attrs, req) {
        const owner = OWNER_COLLECTIONS[String(row.reltype)];
        const ownerRow = owner && crm.tables[owner].get(String(row.relid));
        const note = document.note as Attributes;
        const relid = attrs.relid ?? row.relid;
        const answered = { ...document, note: { ...note, relid, owner: { ...(note.owner as Attributes), id: relid } } };
        return ownerRow ? { [owner]: [crm.kinds.get(owner).present(ownerRow, req, "single")], ...answered } : answered;
      },
    },
  });

  const findAccount = (accountId: string): AccountRow => {
    const account = accounts.get(accountId);
    if (!account) throw noResultFound("Account", accountId);
    return account;
  };

  return [
    {
      method: "POST",
      pattern: "/accounts/:id/notes",
      handle: (req) => {
        const account = findAccount(req.params.id);
        return notes.written(req, notes.create(attributesOf(req, "note"), { relid: account.id, reltype: "CustomerAccount" }), {}, 201);
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
        return notes.written(req, notes.update(note, text === undefined ? {} : { note: text }), {});
      },
    },
    ...notes.routes,
  ];
}
