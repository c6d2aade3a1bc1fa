export { FlowRun, FlowRunArgs, FlowRunContact } from "./flow-run";
export type * from "./generated-types";
