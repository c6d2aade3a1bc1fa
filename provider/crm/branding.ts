// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Branding resources require (a path never renamed); its definition is ./campaigns/branding.ts.
import { dynamicDoor } from "../dynamic/door";
import { branding } from "./campaigns/branding";
import type { BrandingArgs, BrandingOutputs } from "./generated-types";

export type { BrandingArgs, BrandingOutputs } from "./generated-types";
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
} = dynamicDoor(module, branding);
export { remove as delete };

export interface Branding extends BrandingOutputs {}

/**
 * The account's branding, taken over from the service and put back as it was found on destroy.
 * Only the fields set here are managed.
 */
export class Branding extends resourceClass<BrandingArgs>() {}
