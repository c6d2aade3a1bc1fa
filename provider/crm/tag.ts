// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Tag resources require (a path never renamed); its definition is ./contacts/tag.ts.
import { dynamicDoor } from "../dynamic/door";
import { tag } from "./contacts/tag";
import type { TagArgs, TagOutputs } from "./generated-types";

export type { TagArgs, TagOutputs } from "./generated-types";
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
} = dynamicDoor(module, tag);
export { remove as delete };

export interface Tag extends TagOutputs {}

/** A tag of contacts or templates. */
export class Tag extends resourceClass<TagArgs>() {}
