// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.List resources require (a path never renamed); its definition is ./contacts/list.ts.
import { dynamicDoor } from "../dynamic/door";
import { list } from "./contacts/list";
import type { ListArgs, ListOutputs } from "./generated-types";

export type { ListArgs, ListOutputs } from "./generated-types";
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
} = dynamicDoor(module, list);
export { remove as delete };

export interface List extends ListOutputs {}

/** A list contacts subscribe to; every change replaces it (the service cannot update a list). */
export class List extends resourceClass<ListArgs>() {}
