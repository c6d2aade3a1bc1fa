// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// chat.FlowRun resources require (a path never renamed); its definition is ./flows/flow-run.ts.
import { dynamicDoor } from "../dynamic/door";
import { flowRun } from "./flows/flow-run";
import type { FlowRunArgs, FlowRunOutputs } from "./generated-types";

export type { FlowRunArgs, FlowRunOutputs } from "./generated-types";
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
} = dynamicDoor(module, flowRun);
export { remove as delete };

export interface FlowRun extends FlowRunOutputs {}

/**
 * Runs a chat flow for a list of contacts when created, and again when its inputs or triggers
 * change.
 */
export class FlowRun extends resourceClass<FlowRunArgs>() {}
