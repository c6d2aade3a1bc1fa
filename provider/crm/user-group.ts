// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.UserGroup resources require (a path never renamed); its definition is ./team/user-group.ts.
import { dynamicDoor } from "../dynamic/door";
import { userGroup } from "./team/user-group";
import type { UserGroupArgs, UserGroupOutputs } from "./generated-types";

export type { UserGroupArgs, UserGroupOutputs } from "./generated-types";
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
} = dynamicDoor(module, userGroup);
export { remove as delete };

export interface UserGroup extends UserGroupOutputs {}

/** A group of users, and what its users may do. */
export class UserGroup extends resourceClass<UserGroupArgs>() {}
