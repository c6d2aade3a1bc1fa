// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Account resources require (a path never renamed); its definition is ./accounts/account.ts.
import { dynamicDoor } from "../dynamic/door";
import { account } from "./accounts/account";
import type { AccountArgs, AccountOutputs } from "./generated-types";

export type { AccountArgs, AccountOutputs } from "./generated-types";
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
} = dynamicDoor(module, account);
export { remove as delete };

export interface Account extends AccountOutputs {}

/** An account (company) in the CRM service. */
export class Account extends resourceClass<AccountArgs>() {}
