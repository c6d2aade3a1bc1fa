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
import { hasChanges, replacedFields, type ResourceCore } from "../kit/core";
import { providerKey, unknownValue } from "../kit/inputs";
import { DeclaredNames } from "../kit/unique-names";
import { keepHostMemorySmall } from "../host-memory";
import * as settings from "../settings";
import type { Definition } from "../definition";

/**
 * The `configure` every resource module exports, which only the provider host calls:
 * keeps the stack config for settings read at call time, and the host's memory small.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  settings.useStackConfig(req.config);
  keepHostMemorySmall();
}

/**
 * The input by which a class hands its check the refusal of a unique name the program declared
 * already (kit/unique-names.ts): the class sees the whole program, the provider host one resource.
 */
const declaredTwiceKey = "__declaredTwice";

/** A resource module's dynamic provider functions, each its core's call translated. */
export function dynamicLifecycle(core: ResourceCore) {
  return {
    async check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
      const { [declaredTwiceKey]: declaredTwice, ...inputs } = news;
      if (core.uniqueName && typeof declaredTwice === "string" && declaredTwice !== unknownValue)
        return { failures: [{ property: core.uniqueName.field, reason: declaredTwice }] };
      return core.check(olds, inputs);
    },
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
    create: (inputs: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> => keepingProvider(inputs, () => core.create(inputs)),
    update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> =>
      keepingProvider(news, () => core.update(id, olds, news)),
    delete: (id: string, props: Record<string, unknown>): Promise<void> => core.delete(id, props),
  };
}

/**
 * A write that took effect and then failed (an action stopped part way, a write the service did
 * not take) carries the object it left behind, which the host records as "failed to initialize".
 * The host adds `__provider` to the outputs of a write that succeeded, never to those of a
 * failure: without it the next refresh or destroy cannot find the provider and fails. So the
 * object left behind keeps the provider it was written with.
 */
async function keepingProvider<T>(inputs: Record<string, unknown>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const leftBehind = error as { id?: unknown; properties?: Record<string, unknown> };
    if (leftBehind.id && leftBehind.properties) leftBehind.properties = { ...leftBehind.properties, [providerKey]: inputs[providerKey] };
    throw error;
  }
}

/**
 * A kind's dynamic door module (provider/crm/<name>.ts, written by `npm run generate`): its
 * definition's parts, which the tests and the export reach it by, the dynamic provider functions
 * and configure, and its class, whose provider is the module's own exports.
 */
export function dynamicDoor<Kind extends Definition>(resourceModule: NodeModule, definition: Kind) {
  return {
    ...definition,
    ...dynamicLifecycle(definition.core),
    configure,
    /** The resource class, its provider the module's own exports (see dynamicClass). */
    resourceClass: <Args extends object>() => dynamicClass<Args>(resourceModule, definition.core),
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
export type DynamicClass<Args> = (new (
  name: string,
  args: Args,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource) &
  Pick<typeof pulumi.CustomResource, "isInstance">;

// Unique names declared by this program run. A program runs once per preview and once per update.
const declaredInProgram = new DeclaredNames();

/**
 * The resource class of a core, whose provider is `resourceModule`'s exports: it hands
 * pulumi.dynamic.Resource every argument the user passed (so that check names a misspelt
 * one instead of it being dropped) and every output name (so that each becomes an output
 * whether set or not), and marks the secret outputs. A unique name the program declared
 * already (a name known only later, an Output, once it resolves) is handed to check, which
 * refuses the resource before any request, as the plugin's check does. A key the stack holds
 * in plain text keeps the program from running (settings.plainKeyRefusal).
 */
export function dynamicClass<Args extends object>(resourceModule: NodeModule, core: ResourceCore): DynamicClass<Args> {
  const { declaration, uniqueName } = core;
  const pending = (value: unknown) => pulumi.Output.isInstance(value) || value instanceof Promise;
  return class extends pulumi.dynamic.Resource {
    constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {
      const refusal = settings.plainKeyRefusal();
      if (refusal) throw new pulumi.RunError(refusal);
      const props: Record<string, unknown> = { ...(args as Record<string, unknown>) };
      if (uniqueName) {
        const by = {};
        const value = props[uniqueName.field];
        const scope = uniqueName.within && props[uniqueName.within];
        const declaredTwice = (resolved: unknown, resolvedScope: unknown) =>
          declaredInProgram.claim(core, { [uniqueName.field]: resolved, ...(uniqueName.within ? { [uniqueName.within]: resolvedScope } : {}) }, by)?.message;
        props[declaredTwiceKey] =
          pending(value) || pending(scope)
            ? pulumi.all([value, scope]).apply(([resolved, resolvedScope]) => declaredTwice(resolved, resolvedScope))
            : declaredTwice(value, scope);
      }
      // A secret input is secret in state whatever the program gave.
      for (const field of declaration.fields)
        if (field.secret && field.role !== "output" && props[field.name] !== undefined) props[field.name] = pulumi.secret(props[field.name]);
      const secretOpts = declaration.secretOutputs.length
        ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...declaration.secretOutputs] }
        : opts;
      super(moduleProvider(resourceModule), name, withEveryOutput(props, declaration.outputs), secretOpts, declaration.namespace, declaration.name);
    }
  };
}
