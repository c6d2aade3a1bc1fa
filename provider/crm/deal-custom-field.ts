// crm.DealCustomField: the definition of a custom deal field (the service's dealCustomFieldMetum),
// the twin of crm.AccountCustomField, made by the same machinery (./custom-field-definition.ts).

import { dynamicClass } from "../dynamic";
import { customFieldDefinition } from "./custom-field-definition";
import type { DealCustomFieldArgs, DealCustomFieldOutputs } from "./generated-types";

export type { DealCustomFieldArgs, DealCustomFieldOutputs } from "./generated-types";

export const {
  declaration,
  inputSchema,
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
  name: "DealCustomField",
  subject: "deal",
  pages: "deal pages",
  profiles: "deal profiles",
  section: "Custom deal fields",
});
export { remove as delete };
export { configure } from "../dynamic";

export interface DealCustomField extends DealCustomFieldOutputs {}

/** A custom field of the CRM account's deals: label, type, options, default. */
export class DealCustomField extends dynamicClass<DealCustomFieldArgs>(module, core) {}
