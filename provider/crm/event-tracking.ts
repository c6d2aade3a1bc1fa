// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.EventTracking resources require (a path never renamed); its definition is ./tracking/event-tracking.ts.
import { dynamicDoor } from "../dynamic/door";
import { eventTracking } from "./tracking/event-tracking";
import type { EventTrackingArgs, EventTrackingOutputs } from "./generated-types";

export type { EventTrackingArgs, EventTrackingOutputs } from "./generated-types";
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
} = dynamicDoor(module, eventTracking);
export { remove as delete };

export interface EventTracking extends EventTrackingOutputs {}

/** The account's event tracking switch, taken over and put back as it was found on destroy. */
export class EventTracking extends resourceClass<EventTrackingArgs>() {}
