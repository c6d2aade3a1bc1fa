// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.DealRole resources require (a path never renamed); its definition is ./sales/deal-role.ts.
import { dynamicDoor } from "../dynamic/door";
import { dealRole } from "./sales/deal-role";
import type { DealRoleArgs, DealRoleOutputs } from "./generated-types";

export type { DealRoleArgs, DealRoleOutputs } from "./generated-types";
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
} = dynamicDoor(module, dealRole);
export { remove as delete };

export interface DealRole extends DealRoleOutputs {}

/**
 * A role a contact plays in the account's deals, such as Finance; a new title replaces it (the
 * service cannot update a role).
 */
export class DealRole extends resourceClass<DealRoleArgs>() {}
