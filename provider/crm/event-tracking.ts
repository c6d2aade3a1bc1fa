// crm.EventTracking: the account's event tracking switch (/eventTracking), on or off for the
// whole account: taken over, and put back as found on destroy (see ./account-switch.ts).

import { accountSwitch } from "./account-switch";
import type { EventTrackingArgs, EventTrackingOutputs } from "./generated-types";

export type { EventTrackingArgs, EventTrackingOutputs } from "./generated-types";

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
  name: "EventTracking",
  member: "eventTracking",
  what: "event tracking",
});
export { remove as delete };

export interface EventTracking extends EventTrackingOutputs {}

/** The account's event tracking switch, taken over and put back as it was found on destroy. */
export class EventTracking extends resourceClass<EventTrackingArgs>() {}
