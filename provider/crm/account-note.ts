// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.AccountNote resources require (a path never renamed); its definition is ./accounts/account-note.ts.
import { dynamicDoor } from "../dynamic/door";
import { accountNote } from "./accounts/account-note";
import type { AccountNoteArgs, AccountNoteOutputs } from "./generated-types";

export type { AccountNoteArgs, AccountNoteOutputs } from "./generated-types";
export const {
  declaration,
  inputSchema,
  core,
  exported,
  inputsDeclaring,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  configure,
  resourceClass,
} = dynamicDoor(module, accountNote);
export { remove as delete };

export interface AccountNote extends AccountNoteOutputs {}

/** A note on an account. */
export class AccountNote extends resourceClass<AccountNoteArgs>() {}
