// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.AccountCustomField resources require (a path never renamed); its definition is ./accounts/account-custom-field.ts.
import { dynamicDoor } from "../dynamic/door";
import { accountCustomField } from "./accounts/account-custom-field";
import type { AccountCustomFieldArgs, AccountCustomFieldOutputs } from "./generated-types";

export type { AccountCustomFieldArgs, AccountCustomFieldOutputs } from "./generated-types";
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
} = dynamicDoor(module, accountCustomField);
export { remove as delete };

export interface AccountCustomField extends AccountCustomFieldOutputs {}

/**
 * A custom field of the CRM account's accounts (companies); its values are
 * crm.AccountCustomFieldValue resources.
 */
export class AccountCustomField extends resourceClass<AccountCustomFieldArgs>() {}
