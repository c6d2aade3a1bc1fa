// crm.AccountNote: a note on an account. Created and changed under its account
// (/accounts/{id}/notes), read and deleted as a note (/notes/{id}); the lifecycle is
// crmCore's (see ../crud).

import { z } from "zod";
import { defineKind } from "../../definition";
import type { ExportDeclaration } from "../crud/export-declaration";
import { declareResource, input, takeOverById } from "../../kit/declaration";
import { givenText, serviceId } from "../../kit/inputs";
import { labelByIds } from "../../kit/check-diff";
import { wireForms } from "../../kit/wire";
import type { ServiceObject } from "../service/collection";
import { crmCore, type CrmKindSpec } from "../crud";
import * as wire from "../service/wire-forms";
import { isoCreated } from "../service/recovery";

const declaration = declareResource({
  namespace: "crm",
  name: "AccountNote",
  inputs: {
    // The account is the note's relid, and the path its create is sent to.
    accountId: input(serviceId("the account, such as a crm.Account's id"), "The account's id, e.g. a crm.Account's `id`; the service cannot move a note.", {
      replaceOnChanges: true,
      refersTo: "account",
      wire: wire.id({ request: false, answer: "relid" }),
    }),
    note: input(givenText("the note's text", z.string()), "The note's text, not empty.", { wire: wire.text() }),
    adoptId: takeOverById("note of the account", "its text is set to the declared one if it differs"),
  },
});

type NoteInputs = z.output<typeof declaration.inputSchema>;

const resourceType = declaration.type;
const { desiredState, stateOf } = wireForms(declaration.fields);

const kind: CrmKindSpec<typeof declaration.inputSchema> = {
  label: labelByIds(resourceType, ["accountId"], ([account]) => `on account ${account}`),
  path: "/notes",
  member: "note",
  collection: "notes",
  createPath: (inputs: NoteInputs) => `/accounts/${inputs.accountId}/notes`,
  updatePath: (id: string, inputs: NoteInputs) => `/accounts/${inputs.accountId}/notes/${id}`,
  // /notes also holds the notes of contacts and deals.
  otherKind: (note: ServiceObject) => (note.reltype === "CustomerAccount" ? undefined : `a note on a ${String(note.reltype)} record`),
  sameContent: (inputs) => ({
    path: "/notes",
    collection: "notes",
    sent: { ...desiredState(inputs), reltype: "CustomerAccount" },
    stateOf: (note) => ({ ...stateOf(note), reltype: note.reltype }),
    createdMs: isoCreated("cdate"),
  }),
};

const core = crmCore(declaration, kind);

/** What `pulumi-crm export` reads of the notes (see ../crud/export-declaration.ts): each follows its account. */
const exported: ExportDeclaration = {
  section: "Notes on accounts",
  part: "data",
  path: kind.path,
  collection: kind.collection!,
  refersTo: declaration.refersTo,
  follows: "accountId",
  title: (_note, _inputs, names) => `${names.accountId} note`,
};

export const accountNote = defineKind("A note on an account.", declaration, core, { inputsDeclaring: core.inputsDeclaring, exported });
