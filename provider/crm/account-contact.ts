// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.AccountContact resources require (a path never renamed); its definition is ./accounts/account-contact.ts.
import { dynamicDoor } from "../dynamic/door";
import { accountContact } from "./accounts/account-contact";
import type { AccountContactArgs, AccountContactOutputs } from "./generated-types";

export type { AccountContactArgs, AccountContactOutputs } from "./generated-types";
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
} = dynamicDoor(module, accountContact);
export { remove as delete };

export interface AccountContact extends AccountContactOutputs {}

/** A contact's association with an account. */
export class AccountContact extends resourceClass<AccountContactArgs>() {}
