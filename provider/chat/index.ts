export { FlowRun, FlowRunArgs, FlowRunContact } from "./flow-run";
