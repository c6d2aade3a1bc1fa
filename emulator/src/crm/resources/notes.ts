import { attributesOf, created, noResultFound, ok, orNoResult, requiredString, type CrmRequest } from "../api";
import type { CrmContext } from "../context";
import type { Route } from "../router";
import { deleteRoute, linksOf, listRoute, readRoute } from "./shared";
import type { AccountRow, NoteRow } from "../state";
import { isoTimestamp } from "../time";

/** Owner types the service reports for each reltype of a note. */
const OWNER_TYPES: Record<string, string> = { CustomerAccount: "account", Subscriber: "contact" };

export function noteRoutes(crm: CrmContext): Route[] {
  const { notes, accounts } = crm.tables;

  const kind = crm.kinds.register<NoteRow>({
    singular: "note",
    plural: "notes",
    present: (row, req) => ({
      cdate: isoTimestamp(row.createdMs),
      id: row.id,
      links: linksOf(req, "notes", row.id, ["activities", "mentions", "notes", "owner", "user"]),
      mdate: isoTimestamp(row.updatedMs),
      note: row.note,
      owner: { id: row.relid, type: OWNER_TYPES[row.reltype] ?? row.reltype.toLowerCase() },
      relid: row.relid,
      reltype: row.reltype,
      user: "1",
      userid: "1",
    }),
  });

  const findNote = (id: string): NoteRow => orNoResult(notes.get(id), "Note", id);
  const findAccount = (id: string): AccountRow => orNoResult(accounts.get(id), "Account", id);
  const noteText = (req: CrmRequest): string => requiredString(attributesOf(req, "note"), "note", "The note was not provided.");

  /** Account note writes answer the note together with its account. */
  const withAccount = (req: CrmRequest, account: AccountRow, note: NoteRow) => ({
    accounts: [crm.kinds.get("accounts").present(account, req, "single")],
    ...crm.kinds.one(req, kind, note),
  });

  return [
    {
      method: "POST",
      pattern: "/accounts/:id/notes",
      handle: (req) => {
        const account = findAccount(req.params.id);
        const text = noteText(req);
        const now = crm.now();
        const note = notes.insert({ note: text, relid: account.id, reltype: "CustomerAccount", createdMs: now, updatedMs: now });
        return created(withAccount(req, account, note));
      },
    },
    {
      method: "PUT",
      pattern: "/accounts/:id/notes/:noteid",
      handle: (req) => {
        const account = findAccount(req.params.id);
        const note = findNote(req.params.noteid);
        if (note.reltype !== "CustomerAccount" || note.relid !== account.id) throw noResultFound("Note", note.id);
        note.note = noteText(req);
        note.updatedMs = crm.now();
        return ok(withAccount(req, account, note));
      },
    },
    listRoute(crm, kind, () => notes.all()),
    readRoute(crm, kind, findNote),
    {
      method: "PUT",
      pattern: "/notes/:id",
      handle: (req) => {
        const note = findNote(req.params.id);
        note.note = noteText(req);
        note.updatedMs = crm.now();
        return ok(crm.kinds.one(req, kind, note));
      },
    },
    deleteRoute(kind, findNote, (note) => notes.delete(note.id)),
  ];
}
