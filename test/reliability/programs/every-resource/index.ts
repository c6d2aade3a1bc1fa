// Objects of every CRM resource type, as the test declares them in the stack config
// `resources` (see test/support/every-resource.ts): each made by its class's name with
// its inputs, the inputs in `references` given the id of a resource declared before it,
// as `account.id` is in a user's program. See test/reliability/fault-soak.test.ts.
import * as pulumi from "@pulumi/pulumi";
import { chat, crm } from "pulumi-crm";

interface DeclaredResource {
  /** The class, e.g. `crm.Account`. */
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  /** Inputs that take the id of a resource declared before, by its name. */
  references: Record<string, string>;
}

type ResourceClass = new (name: string, args: Record<string, unknown>) => pulumi.CustomResource;
const namespaces: Record<string, Record<string, unknown>> = { crm, chat };

const made = new Map<string, pulumi.CustomResource>();
for (const { type, name, inputs, references } of new pulumi.Config().requireObject<DeclaredResource[]>("resources")) {
  const [namespace, className] = type.split(".");
  const Resource = namespaces[namespace]?.[className];
  if (typeof Resource !== "function") throw new Error(`${name}: ${type} is not a resource of pulumi-crm`);
  const args = { ...inputs };
  for (const [input, referred] of Object.entries(references)) {
    const resource = made.get(referred);
    if (!resource) throw new Error(`${name}: ${input} refers to ${referred}, which is not declared before it`);
    args[input] = resource.id;
  }
  made.set(name, new (Resource as ResourceClass)(name, args));
}
