// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.TrackedEvent resources require (a path never renamed); its definition is ./tracking/tracked-event.ts.
import { dynamicDoor } from "../dynamic/door";
import { trackedEvent } from "./tracking/tracked-event";
import type { TrackedEventArgs, TrackedEventOutputs } from "./generated-types";

export type { TrackedEventArgs, TrackedEventOutputs } from "./generated-types";
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
} = dynamicDoor(module, trackedEvent);
export { remove as delete };

export interface TrackedEvent extends TrackedEventOutputs {}

/** An event name event tracking accepts. */
export class TrackedEvent extends resourceClass<TrackedEventArgs>() {}
