// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.TaskOutcome resources require (a path never renamed); its definition is ./sales/task-outcome.ts.
import { dynamicDoor } from "../dynamic/door";
import { taskOutcome } from "./sales/task-outcome";
import type { TaskOutcomeArgs, TaskOutcomeOutputs } from "./generated-types";

export type { TaskOutcomeArgs, TaskOutcomeOutputs } from "./generated-types";
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
} = dynamicDoor(module, taskOutcome);
export { remove as delete };

export interface TaskOutcome extends TaskOutcomeOutputs {}

/**
 * An outcome a sales task can end with, such as Interested, with its sentiment; unique by title.
 */
export class TaskOutcome extends resourceClass<TaskOutcomeArgs>() {}
