// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.AccountCustomFieldValue resources require (a path never renamed); its definition is ./accounts/account-custom-field-value.ts.
import { dynamicDoor } from "../dynamic/door";
import { accountCustomFieldValue } from "./accounts/account-custom-field-value";
import type { AccountCustomFieldValueArgs, AccountCustomFieldValueOutputs } from "./generated-types";

export type { AccountCustomFieldValueArgs, AccountCustomFieldValueOutputs } from "./generated-types";
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
} = dynamicDoor(module, accountCustomFieldValue);
export { remove as delete };

export interface AccountCustomFieldValue extends AccountCustomFieldValueOutputs {}

/** The value of a custom account field for one account. */
export class AccountCustomFieldValue extends resourceClass<AccountCustomFieldValueArgs>() {}
