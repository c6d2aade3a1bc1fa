// One client's stack through the Pulumi CLI, driven by the Automation API
// (@pulumi/pulumi/automation, the peer dependency): its settings written from the clients file,
// then a preview, an up, a drift check (`refresh --preview-only`) or a destroy, read back as one
// outcome. The CLI is the `pulumi` on PATH, with the user's own backend and PULUMI_HOME.

import type { ConfigMap, EngineEvent, LocalWorkspace, Stack, StepEventMetadata } from "@pulumi/pulumi/automation";
import type { Client } from "./clients";
import { Drifted, firstLine, Operation, RunResult } from "./run";

type Automation = typeof import("@pulumi/pulumi/automation");

/** Loaded when a fleet command runs: `pulumi-crm export` and the provider never load it. */
let loaded: Automation | undefined;
const automation = (): Automation => (loaded ??= require("@pulumi/pulumi/automation") as Automation);

export interface DriverOptions {
  /** The program's workspace, shared by every client's stack (fleetWorkspace). */
  workspace: LocalWorkspace;
  /** A client's run is stopped after this long (a hung service, a CLI waiting on something): reported as failed. */
  timeoutSeconds: number;
}

/**
 * The workspace of the program in `program` (the folder holding Pulumi.yaml), for every client's
 * stack: the CLI is found and its version checked once for the fleet, not once a client. Each
 * command names its stack (--stack), so the clients' runs share it.
 */
export async function fleetWorkspace(program: string): Promise<LocalWorkspace> {
  const { LocalWorkspace, PulumiCommand } = automation();
  return LocalWorkspace.create({ workDir: program, pulumiCommand: await PulumiCommand.get() });
}

/** Creates the client's stack if it has none, and writes its settings: crm:apiUrl, the key (secret) and the client's config. */
export async function syncStack(client: Client, options: DriverOptions): Promise<Stack> {
  const stack = await automation().Stack.createOrSelect(client.stack, options.workspace);
  const config: ConfigMap = { "crm:apiUrl": { value: client.apiUrl } };
  for (const [key, value] of Object.entries(client.config)) config[key] = { value };
  if ("env" in client.apiToken) {
    const key = process.env[client.apiToken.env];
    if (key !== undefined && key.trim() !== "") {
      config["crm:apiToken"] = { value: key.trim(), secret: true };
    } else if (!("crm:apiToken" in (await stack.getAllConfig()))) {
      throw new Error(`${client.apiToken.env} is not set and the stack holds no crm:apiToken yet: set ${client.apiToken.env} to ${client.stack}'s API key`);
    }
  }
  await stack.setAllConfig(config);
  return stack;
}

/**
 * `operation` on the client's stack: preview and up write its settings first (the clients file is
 * what they deploy); the drift check and destroy run on the stack as it is, which must exist.
 */
export async function runClient(client: Client, operation: Operation, options: DriverOptions): Promise<RunResult> {
  const { Stack, ConcurrentUpdateError, StackNotFoundError } = automation();
  const events: EngineEvent[] = [];
  const common = { onEvent: (event: EngineEvent) => events.push(event), signal: AbortSignal.timeout(options.timeoutSeconds * 1000) };
  try {
    const stack =
      operation === "sync" || operation === "preview" || operation === "up" ? await syncStack(client, options) : await Stack.select(client.stack, options.workspace);
    switch (operation) {
      case "sync":
        return { status: "changed" };
      case "preview":
        await stack.preview(common);
        return changed(events);
      case "up":
        await stack.up(common);
        return changed(events);
      case "destroy":
        await stack.destroy(common);
        return changed(events);
      case "drift": {
        // The program runs first, so that the stack's current settings (a new key, say) are read
        // with, not those stored with the resources at the last up.
        await stack.previewRefresh({ ...common, runProgram: true });
        const drift = driftOf(events);
        return drift.length ? { status: "drift", drift } : { status: "no change" };
      }
    }
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) return { status: "locked", error: lockLine(stderrOf(error)) };
    if (error instanceof StackNotFoundError) return { status: "failed", error: `no stack ${client.stack}: run \`pulumi-crm fleet sync\` (or preview, up) first` };
    if ((error as Error).name === "TimeoutError" || common.signal.aborted) return { status: "failed", error: `stopped after ${options.timeoutSeconds} s (--timeout)` };
    return failure(error, events);
  }
}

/** The steps that change a resource (a replacement's own create and delete are counted once, as its replace). */
const CHANGING_OPS = new Set(["create", "update", "delete", "replace"]);

/** The client's own resources in the run's steps: not the stack, nor the provider, which the summary counts too. */
function ownResource(metadata: StepEventMetadata): boolean {
  return metadata.type !== "pulumi:pulumi:Stack" && !metadata.type.startsWith("pulumi:providers:");
}

/** How many of the client's resources the run changed (or, in a preview, would change). */
function changed(events: EngineEvent[]): RunResult {
  const urns = new Set(events.flatMap((event) => (event.resOutputsEvent && ownResource(event.resOutputsEvent.metadata) && CHANGING_OPS.has(event.resOutputsEvent.metadata.op) ? [event.resOutputsEvent.metadata.urn] : [])));
  return urns.size ? { status: "changed", changes: urns.size } : { status: "no change" };
}

/**
 * The resources a `refresh --preview-only` found different in the account: a step other than
 * `same` on a resource (the stack itself and providers left out), with the fields its diff names;
 * where the provider reports no detailed diff (the dynamic provider host drops it), the top-level
 * outputs that differ between the state and what was read.
 */
export function driftOf(events: EngineEvent[]): Drifted[] {
  const found = new Map<string, Drifted>();
  for (const event of events) {
    const metadata = event.resOutputsEvent?.metadata ?? event.resourcePreEvent?.metadata;
    if (!metadata || !ownResource(metadata)) continue;
    const op = metadata.op as string;
    if (op === "same" || op === "read" || (op === "refresh" && !metadata.diffs?.length)) continue;
    const resource = `${metadata.type} ${metadata.urn.slice(metadata.urn.lastIndexOf("::") + 2)}`;
    const gone = op === "delete" || (op === "refresh" && metadata.new === undefined);
    const named = [...(metadata.diffs ?? []), ...Object.keys(metadata.detailedDiff ?? {}).map((path) => path.split(/[.[]/)[0])];
    const fields = named.length ? named : differingOutputs(metadata);
    found.set(resource, { resource, how: gone ? "gone" : "changed", fields: gone ? [] : [...new Set(fields)].sort() });
  }
  return [...found.values()];
}

/** The top-level outputs whose values differ between the step's old and new state; the dynamic provider's own `__provider` left out. */
function differingOutputs(metadata: StepEventMetadata): string[] {
  const old = metadata.old?.outputs ?? {};
  const read = metadata.new?.outputs ?? {};
  return [...new Set([...Object.keys(old), ...Object.keys(read)])].filter((key) => key !== "__provider" && JSON.stringify(old[key]) !== JSON.stringify(read[key]));
}

/** Errors that say the client's service could not be reached (pulumi-crm's transport words them so). */
const UNREACHABLE = /the request did not complete|not sent, as .* (refused the connection|did not resolve|failed the TLS handshake)|\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN)\b/;

/** A failed run: unreachable when the service could not be reached, else its first error line. */
function failure(error: unknown, events: EngineEvent[]): RunResult {
  const stderr = stderrOf(error);
  const diagnostics = events.flatMap((event) => (event.diagnosticEvent?.severity === "error" ? [event.diagnosticEvent.message] : []));
  // A resource's own error first: the CLI's closing lines ("update failed") say less.
  const message = diagnostics.find((text) => !/^\s*(update|preview|refresh|destroy) failed\s*$/.test(text)) ?? stderr.split("\n").find((line) => /^\s*error:/.test(line)) ?? stderr;
  // "Preview failed: " and the like say what the table's Status says already.
  const line = firstLine(message).replace(/^(Preview|Update|Refresh|Destroy) failed:\s*/, "");
  return { status: UNREACHABLE.test([...diagnostics, stderr].join("\n")) ? "unreachable" : "failed", error: line || "the pulumi CLI failed without a message" };
}

/** What the CLI wrote to stderr, kept by the Automation API's CommandError (a private field, read as its text says it is). */
function stderrOf(error: unknown): string {
  return (error as { commandResult?: { stderr?: string } }).commandResult?.stderr ?? (error instanceof Error ? error.message : String(error));
}

function lockLine(stderr: string): string {
  const line = stderr.split("\n").find((text) => /locked|in progress/i.test(text));
  return `another run holds the stack (${firstLine(line ?? stderr)}); not waited on`;
}
