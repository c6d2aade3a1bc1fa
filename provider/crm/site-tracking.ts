// crm.SiteTracking: the account's site tracking switch (/siteTracking), on or off for the
// whole account: taken over, and put back as found on destroy (see ./account-switch.ts).

import { accountSwitch } from "./account-switch";
import type { SiteTrackingArgs, SiteTrackingOutputs } from "./generated-types";

export type { SiteTrackingArgs, SiteTrackingOutputs } from "./generated-types";

export const {
  declaration,
  inputSchema,
  core,
  inputsDeclaring,
  exported,
  check,
  diff,
  create,
  read,
  update,
  delete: remove,
  configure,
  resourceClass,
} = accountSwitch(module, {
  name: "SiteTracking",
  member: "siteTracking",
  what: "site tracking",
});
export { remove as delete };

export interface SiteTracking extends SiteTrackingOutputs {}

/** The account's site tracking switch, taken over and put back as it was found on destroy. */
export class SiteTracking extends resourceClass<SiteTrackingArgs>() {}
