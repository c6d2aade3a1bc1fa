// crm.AccountCustomField: the definition of a custom account field (the service's
// accountCustomFieldMetum). Made by the custom-field definition machinery it shares with
// crm.DealCustomField (./custom-field-definition.ts); the lifecycle, adoption by label included,
// is crmCore's (see ./crud).

import { dynamicClass } from "../dynamic";
import { customFieldDefinition } from "./custom-field-definition";
import type { AccountCustomFieldArgs, AccountCustomFieldOutputs } from "./generated-types";

export type { AccountCustomFieldArgs, AccountCustomFieldOutputs } from "./generated-types";

export const {
  declaration,
  inputSchema,
  fieldStateOf,
  core,
  inputsDeclaring,
  exported,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
} = customFieldDefinition({
  name: "AccountCustomField",
  subject: "account",
  pages: "account pages",
  profiles: "account profiles",
  section: "Custom account fields",
});
export { remove as delete };
export { configure } from "../dynamic";

export interface AccountCustomField extends AccountCustomFieldOutputs {}

/** A custom field of the CRM account's accounts (companies); its values are crm.AccountCustomFieldValue resources. */
export class AccountCustomField extends dynamicClass<AccountCustomFieldArgs>(module, core) {}
