// What a provider host knows of the one deployment it serves: the objects it made, the
// natural keys its creates claimed, what it took over. A host the engine starts serves one
// deployment, and that state is the process's. A plugin the fleet starts once for its
// stacks (pulumi-crm fleet, PULUMI_DEBUG_PROVIDERS) serves one deployment per engine
// connection, each call inside that connection's own (withDeployment). What is the
// account's, not a deployment's, stays the process's: the limiter, reads under way.

import { AsyncLocalStorage } from "node:async_hooks";

/** One deployment's state, by the `perDeployment` that made each part. */
export type Deployment = Map<object, unknown>;

const served = new AsyncLocalStorage<Deployment>();
const processDeployment: Deployment = new Map();

/** Runs `call`, its awaited work included, in `deployment`. */
export function withDeployment<T>(deployment: Deployment, call: () => T): T {
  return served.run(deployment, call);
}

/** A part of a deployment's state: `make`s it once for each deployment, and answers the current deployment's. */
export function perDeployment<T>(make: () => T): () => T {
  const part = {};
  return () => {
    const deployment = served.getStore() ?? processDeployment;
    if (!deployment.has(part)) deployment.set(part, make());
    return deployment.get(part) as T;
  };
}
