// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.SiteTrackingDomain resources require (a path never renamed); its definition is ./tracking/site-tracking-domain.ts.
import { dynamicDoor } from "../dynamic/door";
import { siteTrackingDomain } from "./tracking/site-tracking-domain";
import type { SiteTrackingDomainArgs, SiteTrackingDomainOutputs } from "./generated-types";

export type { SiteTrackingDomainArgs, SiteTrackingDomainOutputs } from "./generated-types";
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
} = dynamicDoor(module, siteTrackingDomain);
export { remove as delete };

export interface SiteTrackingDomain extends SiteTrackingDomainOutputs {}

/** A domain site tracking is allowed on. */
export class SiteTrackingDomain extends resourceClass<SiteTrackingDomainArgs>() {}
