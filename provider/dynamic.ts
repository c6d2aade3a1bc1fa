// The dynamic door: how a resource's provider core (./kit/core.ts) becomes the provider of
// its dynamic resources, and its class. It translates and decides nothing.
//
// pulumi.dynamic.Resource serializes the provider object it is given into the
// `__provider` input of every resource. The closure serializer copies local code
// by value but captures a module loaded from node_modules by reference, as a
// `require()`. So each resource module exports its lifecycle functions (check,
// diff, create, read, update, delete, configure) at top level and hands its own
// exports object over: `__provider` is then one require() of the installed
// module, a few hundred bytes, serialized once per resource type, and free of
// credentials; module state (the limiter per account, the connection pool, the
// stack config) exists once per provider host. Those module paths are an API:
// deployed stacks require them on refresh and destroy.

import * as pulumi from "@pulumi/pulumi";
import { hasChanges, replacedFields, ResourceCore } from "./kit/core";
import { DeclaredNames } from "./kit/unique-names";
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

/** A resource module's dynamic provider functions, each its core's call translated. */
export function dynamicLifecycle(core: ResourceCore) {
  return {
    check: (olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> => core.check(olds, news),
    // The host forwards changes, replaces and deleteBeforeReplace: a change tied to no input (an action to carry on) is a change with no replace.
    async diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
      const changes = await core.diff(id, olds, news);
      return { changes: hasChanges(changes), replaces: replacedFields(changes), deleteBeforeReplace: changes.deleteBeforeReplace ?? false };
    },
    // The host only refreshes: pulumi import and Resource.get do not reach dynamic resources (pulumi/pulumi#16175).
    async read(id: string, props: Record<string, unknown> = {}): Promise<pulumi.dynamic.ReadResult> {
      const found = await core.read(id, { refresh: props });
      return found ? { id: found.id, props: found.outputs, inputs: found.inputs } : {};
    },
    create: (inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> => core.create(inputs),
    update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> => core.update(id, olds, news),
    delete: (id: string, props: Record<string, unknown>): Promise<void> => core.delete(id, props),
  };
}

// update is optional: a resource whose every change replaces it has none.
const lifecycle = ["configure", "check", "diff", "create", "read", "delete"] as const;

/** The resource module's own exports, checked to be a complete provider. */
function moduleProvider(resourceModule: NodeModule): pulumi.dynamic.ResourceProvider {
  const provider = resourceModule.exports as Record<string, unknown>;
  const missing = lifecycle.filter((name) => typeof provider[name] !== "function");
  if (missing.length) throw new Error(`${resourceModule.id} does not export ${missing.join(", ")}`);
  return provider as unknown as pulumi.dynamic.ResourceProvider;
}

/** The props a class hands over: every argument, and every output name, so that each becomes an output whether set or not. */
export function withEveryOutput(args: Record<string, unknown>, outputs: readonly string[]): Record<string, unknown> {
  const props = { ...args };
  for (const output of outputs) if (!(output in props)) props[output] = undefined;
  return props;
}

/** A resource class: what a program constructs, with the statics of every resource class. */
export type DynamicClass<Args> = (new (name: string, args: Args, opts?: pulumi.CustomResourceOptions) => pulumi.dynamic.Resource) & Pick<typeof pulumi.CustomResource, "isInstance">;

// Unique names declared by this program run. A program runs once per preview and once per update.
const declaredInProgram = new DeclaredNames();

/**
 * The resource class of a core, whose provider is `resourceModule`'s exports: it hands
 * pulumi.dynamic.Resource every argument the user passed (so that check names a misspelt
 * one instead of it being dropped) and every output name (so that each becomes an output
 * whether set or not), marks the secret outputs, and refuses a unique name the program
 * declared already, before any request (a name known only later, an Output, once it resolves).
 */
export function dynamicClass<Args extends object>(resourceModule: NodeModule, core: ResourceCore): DynamicClass<Args> {
  const { declaration, uniqueName } = core;
  const declaredOnce = (value: unknown, scope: unknown, by: object) => {
    const refused = declaredInProgram.claim(core, { [uniqueName!.field]: value, ...(uniqueName!.within ? { [uniqueName!.within]: scope } : {}) }, by);
    if (refused) throw refused;
    return value;
  };
  const pending = (value: unknown) => pulumi.Output.isInstance(value) || value instanceof Promise;
  return class extends pulumi.dynamic.Resource {
    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const props: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      if (uniqueName) {
        const by = {};
        const value = props[uniqueName.field];
        const scope = uniqueName.within && props[uniqueName.within];
        props[uniqueName.field] =
          pending(value) || pending(scope) ? pulumi.all([value, scope]).apply(([resolved, resolvedScope]) => declaredOnce(resolved, resolvedScope, by)) : declaredOnce(value, scope, by);
      }
      // A secret input is secret in state whatever the program gave.
      for (const field of declaration.fields) if (field.secret && field.role !== "output" && props[field.name] !== undefined) props[field.name] = pulumi.secret(props[field.name]);
      const secretOpts = declaration.secretOutputs.length ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...declaration.secretOutputs] } : opts;
      super(moduleProvider(resourceModule), name, withEveryOutput(props, declaration.outputs), secretOpts, declaration.namespace, declaration.name);
    }
  };
}
