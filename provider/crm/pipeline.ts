// Written by `npm run generate` from provider/registry.ts: do not edit. The module deployed dynamic
// crm.Pipeline resources require (a path never renamed); its definition is ./sales/pipeline.ts.
import { dynamicDoor } from "../dynamic/door";
import { pipeline } from "./sales/pipeline";
import type { PipelineArgs, PipelineOutputs } from "./generated-types";

export type { PipelineArgs, PipelineOutputs } from "./generated-types";
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
} = dynamicDoor(module, pipeline);
export { remove as delete };

export interface Pipeline extends PipelineOutputs {}

/** A pipeline deals move through; its stages are crm.PipelineStage resources. */
export class Pipeline extends resourceClass<PipelineArgs>() {}
