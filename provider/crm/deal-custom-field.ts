// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.DealCustomField resources require (a path never renamed); its definition is ./sales/deal-custom-field.ts.
import { dynamicDoor } from "../dynamic/door";
import { dealCustomField } from "./sales/deal-custom-field";
import type { DealCustomFieldArgs, DealCustomFieldOutputs } from "./generated-types";

export type { DealCustomFieldArgs, DealCustomFieldOutputs } from "./generated-types";
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
} = dynamicDoor(module, dealCustomField);
export { remove as delete };

export interface DealCustomField extends DealCustomFieldOutputs {}

/** A custom field of the CRM account's deals: label, type, options, default. */
export class DealCustomField extends resourceClass<DealCustomFieldArgs>() {}
