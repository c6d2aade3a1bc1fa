// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.SavedResponse resources require (a path never renamed); its definition is ./sales/saved-response.ts.
import { dynamicDoor } from "../dynamic/door";
import { savedResponse } from "./sales/saved-response";
import type { SavedResponseArgs, SavedResponseOutputs } from "./generated-types";

export type { SavedResponseArgs, SavedResponseOutputs } from "./generated-types";
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
} = dynamicDoor(module, savedResponse);
export { remove as delete };

export interface SavedResponse extends SavedResponseOutputs {}

/** A saved response: an email's subject and body, kept under a title. */
export class SavedResponse extends resourceClass<SavedResponseArgs>() {}
