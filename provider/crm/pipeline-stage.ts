// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.PipelineStage resources require (a path never renamed); its definition is ./sales/pipeline-stage.ts.
import { dynamicDoor } from "../dynamic/door";
import { pipelineStage } from "./sales/pipeline-stage";
import type { PipelineStageArgs, PipelineStageOutputs } from "./generated-types";

export type { PipelineStageArgs, PipelineStageOutputs } from "./generated-types";
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
} = dynamicDoor(module, pipelineStage);
export { remove as delete };

export interface PipelineStage extends PipelineStageOutputs {}

/** A stage of a pipeline: its title, position, color and width on the deals' board. */
export class PipelineStage extends resourceClass<PipelineStageArgs>() {}
