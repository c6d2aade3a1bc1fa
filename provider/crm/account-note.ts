// crm.AccountNote: a note on an account. Created and changed under its account
// (/accounts/{id}/notes), read and deleted as a note (/notes/{id}); the lifecycle is
// crmLifecycle's (see ./crud.ts).

import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { moduleProvider } from "../dynamic";
import { labelByIds, resourceProps, serviceId, strictObject } from "../resource-kit";
import { crmService } from "../settings";
import { crmLifecycle, CrmObjectKind, ServiceObject } from "./crud";
import { idOf } from "./normalize";

export interface AccountNoteArgs {
  /** The account's id, e.g. a crm.Account's `id`. A change replaces the note (the service cannot move one). */
  accountId: pulumi.Input<string>;
  /** The note's text, not empty. Changed in place. */
  note: pulumi.Input<string>;
}

const inputSchema = strictObject({
  accountId: serviceId("the account, such as a crm.Account's id"),
  note: z.string({ required_error: "is required: the note's text", invalid_type_error: "must be a string" }).refine((text) => text.trim() !== "", "must not be empty"),
});

type NoteInputs = z.output<typeof inputSchema>;

interface NoteState extends Record<string, unknown> {
  accountId: string;
  note: string;
}

const resourceType = "crm.AccountNote";

const kind: CrmObjectKind<typeof inputSchema, NoteState> = {
  type: resourceType,
  schema: inputSchema,
  services: [crmService],
  label: labelByIds(resourceType, ["accountId"], ([account]) => `on account ${account}`),
  updatable: ["note"],
  replaceOn: ["accountId"],
  path: "/notes",
  member: "note",
  createPath: (inputs: NoteInputs) => `/accounts/${inputs.accountId}/notes`,
  updatePath: (id: string, inputs: NoteInputs) => `/accounts/${inputs.accountId}/notes/${id}`,
  // The account is the note's relid; cdate, mdate, owner, user and the accounts the
  // writes answer beside the note are not outputs.
  stateOf: (note: ServiceObject) => ({ accountId: idOf(note.relid) ?? "", note: String(note.note) }),
  desiredState: (inputs: NoteInputs) => inputs,
  createBody: (inputs: NoteInputs) => ({ note: inputs.note }),
};

export const { check, diff, create, read, update, delete: remove } = crmLifecycle(kind);
export { remove as delete };
export { configure } from "../dynamic";

/** A note on an account. */
export class AccountNote extends pulumi.dynamic.Resource {
  /** The account's id. */
  declare readonly accountId: pulumi.Output<string>;
  /** The note's text. */
  declare readonly note: pulumi.Output<string>;

  constructor(name: string, args: AccountNoteArgs, opts?: pulumi.CustomResourceOptions) {
    super(moduleProvider(module), name, resourceProps(args, ["accountId", "note"]), opts, "crm", "AccountNote");
  }
}
