// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.User resources require (a path never renamed); its definition is ./team/user.ts.
import { dynamicDoor } from "../dynamic/door";
import { user } from "./team/user";
import type { UserArgs, UserOutputs } from "./generated-types";

export type { UserArgs, UserOutputs } from "./generated-types";
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
} = dynamicDoor(module, user);
export { remove as delete };

export interface User extends UserOutputs {}

/** A user of the account, in a user group, with a write-only password. */
export class User extends resourceClass<UserArgs>() {}
