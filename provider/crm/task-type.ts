// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.TaskType resources require (a path never renamed); its definition is ./sales/task-type.ts.
import { dynamicDoor } from "../dynamic/door";
import { taskType } from "./sales/task-type";
import type { TaskTypeArgs, TaskTypeOutputs } from "./generated-types";

export type { TaskTypeArgs, TaskTypeOutputs } from "./generated-types";
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
} = dynamicDoor(module, taskType);
export { remove as delete };

export interface TaskType extends TaskTypeOutputs {}

/** A type of task (call, email, meeting): its title, and whether it is disabled. */
export class TaskType extends resourceClass<TaskTypeArgs>() {}
