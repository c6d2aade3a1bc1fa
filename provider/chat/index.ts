// Written by `npm run generate` from provider/registry.ts: do not edit.
export { FlowRun } from "./flow-run";
export type * from "./generated-types";
