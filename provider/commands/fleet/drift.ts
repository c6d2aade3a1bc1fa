// The drift check of a stack whose resources are all this package's, on its default provider:
// read in this process, through the same resource core the plugin serves, from the state the CLI
// exports (`pulumi stack export`, the CLI decrypting any secret) and with the stack's current
// settings. It asks what `pulumi refresh --preview-only --run-program` asks, as the engine asks
// it: each object read from its stored outputs, then the provider's diff of what was read against
// the inputs the state holds (pkg/resource/deploy/step.go, RefreshStep.Apply), so that it names
// the same resources and fields; without the CLI's refresh, the YAML language host and the
// plugin, some 0.6 of the 0.8 s of CPU a client's check took. A stack holding anything else
// (a dynamic resource, an explicit provider, a kind this package does not serve) is left to the
// engine: the answer is undefined.

import type { ConfigMap } from "@pulumi/pulumi/automation";
import { hasChanges } from "../../kit/core";
import { propertiesOf, structOf } from "../../plugin/properties";
import { structProto } from "../../plugin/sdk-modules";
import { resources } from "../../registry";
import { isDefaultProviderName, withProviderSettings } from "../../settings";
import type { Drifted, RunResult } from "./run";

/** A resource of `pulumi stack export`'s state (apitype.ResourceV3), as far as the check reads it. */
interface StateResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  provider?: string;
  external?: boolean;
  /** An object an interrupted replacement left to delete. */
  delete?: boolean;
  pendingReplacement?: boolean;
  ignoreChanges?: string[];
}

export interface ExportedState {
  deployment?: { resources?: StateResource[] };
}

const signatureKey = "4dabf18193072939515e22adb298388d";

/** Whether the state holds a secret the CLI exported encrypted (`pulumi stack export` without --show-secrets). */
export const holdsEncryptedSecrets = (state: ExportedState) => JSON.stringify(ownResources(state)).includes('"ciphertext"');

/** A value of the exported state as the engine hands it to a provider: a secret's plaintext (--show-secrets) in its place. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value;
  const members = value as Record<string, unknown>;
  if (signatureKey in members && typeof members.plaintext === "string") return plain(JSON.parse(members.plaintext));
  return Object.fromEntries(Object.entries(members).map(([key, member]) => [key, plain(member)]));
}

/** As the engine sends them: through a protobuf Struct, secrets unwrapped. */
const asSent = (properties: Record<string, unknown> | undefined) =>
  propertiesOf(structProto.Struct.fromJavaScript(plain(properties ?? {}) as Record<string, never>));

const cores = new Map(resources.map((resource) => [resource.definition.declaration.token, resource.definition.core]));

/** The resources a refresh reads: the custom ones, but the providers. */
const ownResources = (state: ExportedState) =>
  (state.deployment?.resources ?? []).filter((resource) => resource.custom && !resource.type.startsWith("pulumi:providers:"));

/** `urn:pulumi:<stack>::<project>::pulumi:providers:crm::default_0_1_0::<uuid>` is the default provider of crm. */
function onDefaultProvider(resource: StateResource, providers: Map<string, StateResource>): boolean {
  const reference = resource.provider ?? "";
  const urn = reference.slice(0, reference.lastIndexOf("::"));
  const provider = providers.get(urn);
  const name = urn.slice(urn.lastIndexOf("::") + 2);
  const version = typeof provider?.inputs?.version === "string" ? provider.inputs.version : undefined;
  return provider !== undefined && provider.type === `pulumi:providers:${resource.type.split(":")[0]}` && isDefaultProviderName(name, version);
}

/** Whether the check can read every resource of the state itself; else the engine's refresh does. */
export function readableHere(state: ExportedState): boolean {
  const all = state.deployment?.resources ?? [];
  const providers = new Map(all.filter((resource) => resource.type.startsWith("pulumi:providers:")).map((resource) => [resource.urn, resource]));
  return ownResources(state).every(
    (resource) =>
      cores.has(resource.type) &&
      !resource.external &&
      !resource.delete &&
      !resource.pendingReplacement &&
      !resource.ignoreChanges?.length &&
      onDefaultProvider(resource, providers),
  );
}

/** How the report names a resource: `crm:index:Message newsletter`. */
const named = (resource: StateResource) => `${resource.type} ${resource.urn.slice(resource.urn.lastIndexOf("::") + 2)}`;

/**
 * The drift of a stack `readableHere`, read with `settings` (the stack's, as `pulumi config
 * --json` gives them): each resource in the state's order, one after the other, as the engine
 * reads a stack's resources within its account's rate limit.
 */
export async function driftOfState(state: ExportedState, settings: ConfigMap): Promise<RunResult> {
  const source = {
    get: (key: string) => (settings[key]?.value === "" ? undefined : settings[key]?.value),
  };
  const drift: Drifted[] = [];
  await withProviderSettings(source, async () => {
    for (const resource of ownResources(state)) {
      const core = cores.get(resource.type)!;
      const outputs = asSent(resource.outputs);
      const found = await core.read(resource.id ?? "", { refresh: Object.keys(outputs).length ? outputs : asSent(resource.inputs) });
      if (!found) {
        drift.push({ resource: named(resource), how: "gone", fields: [] });
        continue;
      }
      // As the engine: what was read is the old side, the state's inputs the new (then inverted, which names the same fields).
      const read = propertiesOf(structOf(found.outputs));
      const changes = await core.diff(found.id, read, asSent(resource.inputs));
      if (!hasChanges(changes)) continue;
      const fields = changes.fields.length
        ? changes.fields.map((change) => change.field)
        : Object.keys({ ...outputs, ...read }).filter((key) => JSON.stringify(outputs[key]) !== JSON.stringify(read[key]));
      drift.push({ resource: named(resource), how: "changed", fields: [...new Set(fields)].sort() });
    }
  });
  return drift.length ? { status: "drift", drift } : { status: "no change" };
}
