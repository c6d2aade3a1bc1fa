// How a resource module becomes the provider of its dynamic resources.
//
// pulumi.dynamic.Resource serializes the provider object it is given into the
// `__provider` input of every resource. The closure serializer copies local code
// by value but captures a module loaded from node_modules by reference, as a
// `require()`. So each resource module exports its lifecycle functions (check,
// diff, create, read, update, delete, configure) at top level and hands its own
// exports object over: `__provider` is then one require() of the installed
// module, a few hundred bytes, serialized once per resource type, and free of
// credentials; module state (the limiter per account, the connection pool, the
// stack config) exists once per provider host.

import * as pulumi from "@pulumi/pulumi";
import { keepHostMemorySmall } from "./host-memory";
import * as settings from "./settings";

/**
 * The `configure` every resource module exports, which only the provider host calls:
 * keeps the stack config for settings read at call time, and the host's memory small.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  settings.useStackConfig(req.config);
  keepHostMemorySmall();
}

// update is optional: a resource whose every change replaces it has none.
const lifecycle = ["configure", "check", "diff", "create", "read", "delete"] as const;

/** The resource module's own exports, checked to be a complete provider. */
export function moduleProvider(resourceModule: NodeModule): pulumi.dynamic.ResourceProvider {
  const provider = resourceModule.exports as Record<string, unknown>;
  const missing = lifecycle.filter((name) => typeof provider[name] !== "function");
  if (missing.length) throw new Error(`${resourceModule.id} does not export ${missing.join(", ")}`);
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}
