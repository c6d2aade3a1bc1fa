// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.SiteTracking resources require (a path never renamed); its definition is ./tracking/site-tracking.ts.
import { dynamicDoor } from "../dynamic/door";
import { siteTracking } from "./tracking/site-tracking";
import type { SiteTrackingArgs, SiteTrackingOutputs } from "./generated-types";

export type { SiteTrackingArgs, SiteTrackingOutputs } from "./generated-types";
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
} = dynamicDoor(module, siteTracking);
export { remove as delete };

export interface SiteTracking extends SiteTrackingOutputs {}

/** The account's site tracking switch, taken over and put back as it was found on destroy. */
export class SiteTracking extends resourceClass<SiteTrackingArgs>() {}
