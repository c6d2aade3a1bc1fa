// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Connection resources require (a path never renamed); its definition is ./integrations/connection.ts.
import { dynamicDoor } from "../dynamic/door";
import { connection } from "./integrations/connection";
import type { ConnectionArgs, ConnectionOutputs } from "./generated-types";

export type { ConnectionArgs, ConnectionOutputs } from "./generated-types";
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
} = dynamicDoor(module, connection);
export { remove as delete };

export interface Connection extends ConnectionOutputs {}

/**
 * A connection of the account to an external service, such as a store, as an integration registers
 * it.
 */
export class Connection extends resourceClass<ConnectionArgs>() {}
