// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.ListGroupPermission resources require (a path never renamed); its definition is ./team/list-group-permission.ts.
import { dynamicDoor } from "../dynamic/door";
import { listGroupPermission } from "./team/list-group-permission";
import type { ListGroupPermissionArgs, ListGroupPermissionOutputs } from "./generated-types";

export type { ListGroupPermissionArgs, ListGroupPermissionOutputs } from "./generated-types";
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
} = dynamicDoor(module, listGroupPermission);
export { remove as delete };

export interface ListGroupPermission extends ListGroupPermissionOutputs {}

/**
 * A list's permission for a user group, which lets the group's users use the list; every change
 * replaces it, and a destroy leaves it in the service (the service cannot delete one).
 */
export class ListGroupPermission extends resourceClass<ListGroupPermissionArgs>() {}
