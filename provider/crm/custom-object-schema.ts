// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.CustomObjectSchema resources require (a path never renamed); its definition is ./contacts/custom-object-schema.ts.
import { dynamicDoor } from "../dynamic/door";
import { customObjectSchema } from "./contacts/custom-object-schema";
import type { CustomObjectSchemaArgs, CustomObjectSchemaOutputs } from "./generated-types";

export type { CustomObjectSchemaArgs, CustomObjectSchemaOutputs } from "./generated-types";
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
} = dynamicDoor(module, customObjectSchema);
export { remove as delete };

export interface CustomObjectSchema extends CustomObjectSchemaOutputs {}

/** The definition of a kind of custom object: its fields and relationships. */
export class CustomObjectSchema extends resourceClass<CustomObjectSchemaArgs>() {}
