// One client's stack through the Pulumi CLI, driven by the Automation API
// (@pulumi/pulumi/automation, the peer dependency): its settings written from the clients file,
// then a preview, an up, a drift check (`refresh --preview-only`) or a destroy, read back as one
// outcome. The CLI is the `pulumi` on PATH, with the user's own backend and PULUMI_HOME.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ConfigMap, EngineEvent, LocalWorkspace, Stack, StepEventMetadata } from "@pulumi/pulumi/automation";
import { lockedRow, pendingRow } from "./backend";
import { driftOfState, type ExportedState, holdsEncryptedSecrets, readableHere } from "./drift";
import type { Client } from "./clients";
import { type Drifted, firstLine, type Operation, type Planned, type RunResult } from "./run";
import { holdsRecorded, recordHeld } from "./settings-record";

const execFileAsync = promisify(execFile);

type Automation = typeof import("@pulumi/pulumi/automation");

/** Loaded when a fleet command runs: `pulumi-crm export` and the provider never load it. */
let loaded: Automation | undefined;
const automation = (): Automation => (loaded ??= require("@pulumi/pulumi/automation") as Automation);

/** The fleet's view of the program's stacks, found once for the fleet, shared by every client's run. */
export interface DriverOptions {
  /** The program's workspace, shared by every client's stack (fleetWorkspace). */
  workspace: LocalWorkspace;
  /** A client's run is stopped after this long (a hung service, a CLI waiting on something): reported as failed. */
  timeoutSeconds: number;
  /** The project's stacks in the backend. */
  stacks: Set<string>;
  /** The backend's URL (`pulumi whoami --verbose`). */
  backend: string;
  /** `up --refresh`: each stack is refreshed from its account first, so that drift is repaired. */
  refresh?: boolean;
  /** The program's project: its settings' namespace, as the stack config names them (`crm-agency:clientName`). */
  project: string;
  /** Who keeps the secrets of a stack the fleet makes (`stack init --secrets-provider`); unset, the backend's default. */
  secretsProvider?: string;
  /** The fleet's first CLI reading of a stack's settings, once started: true once it decrypted them (the secrets' passphrase is right). */
  secretsKeyChecked?: Promise<boolean>;
}

/**
 * The workspace of the program in `program` (the folder holding Pulumi.yaml), for every client's
 * stack: the CLI is found and its version checked once for the fleet, not once a client. Each
 * command names its stack (--stack), so the clients' runs share it and no stack is selected.
 *
 * A program that names its plugin's release (`namesPluginRelease`) runs on that plugin: the CLI
 * would otherwise prefer a `pulumi-resource-crm` on PATH, and `npx pulumi-crm fleet` puts the npm
 * package's bin there, a plugin that takes twice the memory (a Node.js program beside its
 * dependencies, not the single executable). The user's own PULUMI_IGNORE_AMBIENT_PLUGINS wins.
 */
export async function fleetWorkspace(program: string, namesPluginRelease: boolean): Promise<LocalWorkspace> {
  const { LocalWorkspace, PulumiCommand } = automation();
  const envVars: Record<string, string> = {};
  if (namesPluginRelease && process.env.PULUMI_IGNORE_AMBIENT_PLUGINS === undefined) envVars.PULUMI_IGNORE_AMBIENT_PLUGINS = "true";
  // A PostgreSQL backend's driver (lib/pq) waits forever on a server that takes the connection and
  // never answers (stopped, or a pooler out of connections).
  if (process.env.PGCONNECT_TIMEOUT === undefined) envVars.PGCONNECT_TIMEOUT = String(CONNECT_TIMEOUT_SECONDS);
  // The CLI 3.274.1's PostgreSQL backend lists a stack's keys holding one of its 2 x GOMAXPROCS
  // connections while it asks for another, in 10 stacks at once (PULUMI_DIY_BACKEND_PARALLEL): from
  // 4 stacks on 2 cores, `pulumi stack ls` waits forever on its own pool, the database idle. One at
  // a time, a listing holds 2.
  if (process.env.PULUMI_DIY_BACKEND_PARALLEL === undefined) envVars.PULUMI_DIY_BACKEND_PARALLEL = "1";
  Object.assign(envVars, shortLivedGoProcesses(process.env));
  return LocalWorkspace.create({ workDir: program, pulumiCommand: await PulumiCommand.get(), envVars });
}

/**
 * What makes the fleet's CLI calls cheaper, each the user's to override: the CLI and the YAML
 * language host are Go processes that live for one command, so their garbage collector, at Go's
 * default (GOGC=100), spends CPU reclaiming memory the process is about to give back: it runs only
 * once a process nears GOMEMLIMIT instead. And every command would look for a newer CLI on
 * api.pulumi.com (or wait on a network that has none), a check a fleet's hundred calls need not
 * make. bench/fleet.ts measures what they save.
 */
export function shortLivedGoProcesses(env: NodeJS.ProcessEnv): Record<string, string> {
  const settings: Record<string, string> = {};
  if (env.GOGC === undefined && env.GOMEMLIMIT === undefined) Object.assign(settings, { GOGC: "off", GOMEMLIMIT: GO_MEMORY_LIMIT });
  if (env.PULUMI_SKIP_UPDATE_CHECK === undefined) settings.PULUMI_SKIP_UPDATE_CHECK = "true";
  return settings;
}

/** Where a fleet's Go process starts collecting garbage: well above what a no-op up holds (some 60 MiB), well below a runner's memory over --parallel. */
const GO_MEMORY_LIMIT = "384MiB";

/** How long a CLI call may take to connect to a PostgreSQL backend, unless PGCONNECT_TIMEOUT says. */
const CONNECT_TIMEOUT_SECONDS = 20;

/** `pulumi <args>` in the workspace, as the Automation API runs it, stopped after `timeoutSeconds`: its stdout. */
async function cli(workspace: LocalWorkspace, args: string[], timeoutSeconds: number): Promise<string> {
  const { stdout } = await execFileAsync(workspace.pulumiCommand.command, [...args, "--non-interactive"], {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars },
    timeout: timeoutSeconds * 1000,
    maxBuffer: 1024 * 1024 * 1024,
  });
  return stdout;
}

/**
 * The backend's stacks of the project and where it keeps them: two CLI calls for the whole fleet,
 * each stopped after `timeoutSeconds`. One after the other: on a new PostgreSQL database, two at
 * once both create the CLI's table, and one fails (`duplicate key value violates unique constraint`).
 */
export async function backendOf(workspace: LocalWorkspace, timeoutSeconds: number): Promise<{ stacks: Set<string>; url: string }> {
  const whoami = await cli(workspace, ["whoami", "--json"], timeoutSeconds);
  const stacks = await cli(workspace, ["stack", "ls", "--json"], timeoutSeconds);
  return {
    stacks: new Set((JSON.parse(stacks) as Array<{ name: string }>).map((stack) => stack.name)),
    url: (JSON.parse(whoami) as { url?: string }).url ?? "",
  };
}

/** Whether the backend's stack list holds `stack` (listed as `acme`, or `org/acme`, or `org/project/acme`). */
export function hasStack(stacks: Set<string>, stack: string): boolean {
  return stacks.has(stack) || [...stacks].some((listed) => listed.split("/").pop() === stack.split("/").pop());
}

/**
 * The stacks of `stacks` whose secrets another provider keeps than `wanted`, as each stack's
 * settings file (Pulumi.<stack>.yaml) names it: the passphrase's where it holds only a salt, the
 * backend's own (Pulumi Cloud's) where it names none. A stack with no settings file here (the
 * CLI reads its settings from elsewhere, or has none yet) is left out, and so is one that cannot
 * be read, which the CLI's own call then reports.
 */
export async function otherSecretsProviders(workspace: LocalWorkspace, stacks: string[], wanted: string): Promise<Array<{ stack: string; provider: string }>> {
  const found = await Promise.all(
    stacks.map(async (stack) => {
      const settings = await workspace.stackSettings(stack).catch(() => undefined);
      if (!settings) return [];
      const provider = settings.secretsProvider ?? (settings.encryptionSalt ? "passphrase" : "the backend's default");
      return provider === wanted ? [] : [{ stack, provider }];
    }),
  );
  return found.flat();
}

/** The config key where sync records the settings it wrote, so that it removes those the clients file no longer holds. */
export const WRITTEN_KEY = "pulumi-crm-fleet:written";

/**
 * The client's stack, made if missing, without selecting it: every command names its stack, and
 * the user's selected stack stays theirs. The Automation API's Stack selects; this one does not.
 */
async function clientStack(stack: string, options: DriverOptions): Promise<Stack> {
  const { Stack } = automation();
  const workspace = options.workspace;
  if (!hasStack(options.stacks, stack)) {
    // `stack init --no-select`, which the Automation API's createStack does not give.
    const secrets = options.secretsProvider ? ["--secrets-provider", options.secretsProvider] : [];
    await cli(workspace, ["stack", "init", stack, "--no-select", ...secrets], options.timeoutSeconds);
    options.stacks.add(stack);
  }
  const unselected = Object.assign(Object.create(workspace) as LocalWorkspace, { selectStack: async () => undefined });
  const handle = await Stack.select(stack, unselected);
  // An up's outputs and summary are three more CLI calls the fleet never reads.
  return Object.assign(handle, { outputs: async () => ({}), info: async () => undefined });
}

/**
 * The settings the clients file gives the client's stack: crm:apiUrl, the key (secret) and the
 * client's config, each key as the stack config names it; the keys whose environment variable is
 * unset (the stack keeps what it holds); and every key the file manages.
 */
function settingsOf(client: Client, project: string): { desired: ConfigMap; unset: Array<{ variable: string; key: string }>; held: Set<string> } {
  const desired: ConfigMap = { "crm:apiUrl": { value: client.apiUrl } };
  const unset: Array<{ variable: string; key: string }> = [];
  const fromEnvironment = (variable: string, key: string) => {
    const value = process.env[variable];
    if (value !== undefined && value.trim() !== "") return { value: value.trim(), secret: true };
    unset.push({ variable, key });
    return undefined;
  };
  // As the stack config names them: a key without a namespace is the project's.
  const named = (key: string) => (key.includes(":") ? key : `${project}:${key}`);
  const held = new Set(["crm:apiUrl", "crm:apiToken", ...Object.keys(client.config).map(named)]);
  for (const [key, setting] of Object.entries(client.config)) {
    const value = "env" in setting ? fromEnvironment(setting.env, named(key)) : setting;
    if (value) desired[named(key)] = value;
  }
  if ("env" in client.apiToken) {
    const key = fromEnvironment(client.apiToken.env, "crm:apiToken");
    if (key) desired["crm:apiToken"] = key;
  }
  desired[WRITTEN_KEY] = { value: [...held].sort().join(",") };
  return { desired, unset, held };
}

/** What the fleet's settings records are kept under, for the client's stack. */
const recordKey = (stack: string, options: DriverOptions) => ({ backend: options.backend, program: options.workspace.workDir, stack });

/**
 * Creates the client's stack if it has none, and writes its settings (settingsOf); removes the
 * settings an earlier sync wrote that the file no longer holds. Writes nothing when the stack
 * holds them already. Answers the stack, whether it was made now and whether anything was written.
 */
export async function syncStack(client: Client, options: DriverOptions): Promise<{ stack: Stack; made: boolean; written: boolean }> {
  const existed = hasStack(options.stacks, client.stack);
  const { desired, unset, held } = settingsOf(client, options.project);
  const record = recordKey(client.stack, options);
  const found = existed ? await clientStack(client.stack, options) : undefined;
  if (found && !unset.length && holdsRecorded(record, desired)) return { stack: found, made: false, written: false };
  const current = found ? await found.getAllConfig() : {};
  const missing = unset.find(({ key }) => !(key in current));
  if (missing)
    throw new Error(
      `${missing.variable} is not set and the stack holds no ${missing.key} yet: set ${missing.variable} to ${client.stack}'s ${missing.key === "crm:apiToken" ? "API key" : missing.key}`,
    );
  const previously = current[WRITTEN_KEY]?.value.split(",").filter(Boolean) ?? [];
  const removed = previously.filter((key) => !held.has(key) && key in current);
  // Made only now, once its settings are known: a client whose key is missing leaves no empty stack.
  const stack = found ?? (await clientStack(client.stack, options));
  const changed = Object.fromEntries(
    Object.entries(desired).filter(([key, setting]) => current[key]?.value !== setting.value || Boolean(current[key]?.secret) !== Boolean(setting.secret)),
  );
  if (Object.keys(changed).length) await stack.setAllConfig(changed);
  if (removed.length) await stack.removeAllConfig(removed);
  // With every setting given (none kept from the stack), the next run can tell from the record alone that nothing changed.
  if (!unset.length) recordHeld(record, desired);
  return { stack, made: !existed, written: !existed || Object.keys(changed).length > 0 || removed.length > 0 };
}

/**
 * `operation` on the client's stack: preview and up write its settings first (the clients file is
 * what they deploy); the drift check and destroy run on the stack as it is, which must exist.
 * A stack the backend holds locked, or with an interrupted run's operations pending, is reported
 * so, with the command that clears it, and not run.
 */
export async function runClient(client: { stack: string } & Partial<Client>, operation: Operation, options: DriverOptions): Promise<RunResult> {
  const { ConcurrentUpdateError, StackNotFoundError } = automation();
  const events: EngineEvent[] = [];
  const common = { onEvent: (event: EngineEvent) => events.push(event), signal: AbortSignal.timeout(options.timeoutSeconds * 1000) };
  try {
    const writes = operation === "sync" || operation === "preview" || operation === "up";
    if (!writes && !hasStack(options.stacks, client.stack)) return noStack(client.stack);
    // Operations an interrupted run left pending: an up would create their objects again.
    const exported =
      operation !== "sync" && hasStack(options.stacks, client.stack)
        ? await cli(options.workspace, ["stack", "export", "--stack", client.stack], options.timeoutSeconds)
        : undefined;
    const pending = exported && pendingRow(exported, client.stack);
    if (pending) return pending;
    if (operation === "drift") {
      const state = JSON.parse(exported!) as ExportedState;
      if (readableHere(state)) {
        const settings = await currentSettings(client, options);
        const readable = holdsEncryptedSecrets(state)
          ? JSON.parse(await cli(options.workspace, ["stack", "export", "--show-secrets", "--stack", client.stack], options.timeoutSeconds))
          : state;
        // --timeout stops waiting on the reads as it stops a CLI call.
        const stopped = new Promise<never>((_, reject) => common.signal.addEventListener("abort", () => reject(common.signal.reason), { once: true }));
        return await Promise.race([driftOfState(readable, settings), stopped]);
      }
    }
    const synced = writes ? await syncStack(client as Client, options) : undefined;
    const stack = synced?.stack ?? (await clientStack(client.stack, options));
    switch (operation) {
      case "sync":
        return synced!.written ? { status: "changed" } : { status: "no change" };
      case "preview":
        try {
          await stack.preview({ ...common, ...refreshing(options) });
        } catch (error) {
          // A preview (a pull request's) leaves no stack it made for a client it could not preview.
          if (synced!.made) await options.workspace.removeStack(client.stack).then(() => options.stacks.delete(client.stack));
          throw error;
        }
        return changed(events);
      case "up":
        await stack.up({ ...common, ...refreshing(options) });
        return changed(events);
      case "destroy":
        await stack.destroy(common);
        return changed(events);
      case "offboard": {
        await stack.destroy(common);
        const result = changed(events);
        await options.workspace.removeStack(client.stack);
        options.stacks.delete(client.stack);
        return { ...result, status: "changed" };
      }
      case "drift": {
        // A stack the check could not read itself (drift.ts). The program runs first, so that the
        // stack's current settings (a new key, say) are read with, not those stored with the
        // resources at the last up.
        await stack.previewRefresh({ ...common, runProgram: true });
        const drift = driftOf(events);
        return drift.length ? { status: "drift", drift } : { status: "no change" };
      }
    }
  } catch (error) {
    if (error instanceof ConcurrentUpdateError) return lockedRow(stderrOf(error), client.stack);
    if (error instanceof StackNotFoundError) return noStack(client.stack);
    if ((error as Error).name === "TimeoutError" || common.signal.aborted)
      return { status: "failed", error: `stopped after ${options.timeoutSeconds} s (--timeout)` };
    return failure(error, events);
  }
}

/**
 * The client's stack's settings as they are now: those the clients file gives, where the record
 * says the stack holds them (settings-record.ts), else as the CLI reads them, secrets decrypted.
 * The fleet's first reading is always the CLI's, and the others wait on it: a missing or wrong
 * passphrase is said before any client is read with a key from the records.
 */
async function currentSettings(client: { stack: string } & Partial<Client>, options: DriverOptions): Promise<ConfigMap> {
  const read = async () =>
    JSON.parse(await cli(options.workspace, ["config", "--show-secrets", "--json", "--stack", client.stack], options.timeoutSeconds)) as ConfigMap;
  if (!options.secretsKeyChecked) {
    const first = read();
    options.secretsKeyChecked = first.then(
      () => true,
      () => false,
    );
    return first;
  }
  if (client.apiUrl !== undefined && (await options.secretsKeyChecked)) {
    const { desired, unset } = settingsOf(client as Client, options.project);
    if (!unset.length && holdsRecorded(recordKey(client.stack, options), desired)) return desired;
  }
  return read();
}

/** `--refresh`, the program run first so that the refresh reads with the stack's current settings (as the drift check does). */
const refreshing = (options: DriverOptions) => (options.refresh ? { refresh: true, runProgram: true } : {});

const noStack = (stack: string): RunResult => ({ status: "failed", error: `no stack ${stack}: run \`pulumi-crm fleet sync\` (or preview, up) first` });

/** The steps that change a resource (a replacement's own create and delete are counted once, as its replace). */
const CHANGING_OPS = new Set(["create", "update", "delete", "replace"]);

/** The client's own resources in the run's steps: not the stack, nor the provider, which the summary counts too. */
function ownResource(metadata: StepEventMetadata): boolean {
  return metadata.type !== "pulumi:pulumi:Stack" && !metadata.type.startsWith("pulumi:providers:");
}

/** The client's resources the run changed (or, in a preview, would change): how each, and which fields. */
function changed(events: EngineEvent[]): RunResult {
  const planned = new Map<string, Planned>();
  for (const event of events) {
    const metadata = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (!metadata || !ownResource(metadata) || !CHANGING_OPS.has(metadata.op)) continue;
    const how = metadata.op as Planned["how"];
    const fields = how === "update" || how === "replace" ? [...new Set(fieldsOf(metadata))].sort() : [];
    planned.set(metadata.urn, { resource: resourceOf(metadata), how, fields });
  }
  // In the resources' order, whatever order the engine ran them in.
  const sorted = [...planned.values()].sort((a, b) => a.resource.localeCompare(b.resource));
  return sorted.length ? { status: "changed", changes: sorted.length, planned: sorted } : { status: "no change" };
}

/** The top-level fields a step's diff names (`fromname` of `fromname` or `fieldOptions[0]`). */
const fieldsOf = (metadata: StepEventMetadata) => [...(metadata.diffs ?? []), ...Object.keys(metadata.detailedDiff ?? {}).map((path) => path.split(/[.[]/)[0])];

/** How the report names a resource: `crm:index:Message newsletter`. */
const resourceOf = (metadata: StepEventMetadata) => `${metadata.type} ${metadata.urn.slice(metadata.urn.lastIndexOf("::") + 2)}`;

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
    const resource = resourceOf(metadata);
    const gone = op === "delete" || (op === "refresh" && metadata.new === undefined);
    const named = fieldsOf(metadata);
    const fields = named.length ? named : differingOutputs(metadata);
    found.set(resource, { resource, how: gone ? "gone" : "changed", fields: gone ? [] : [...new Set(fields)].sort() });
  }
  return [...found.values()];
}

/** The top-level outputs whose values differ between the step's old and new state; the dynamic provider's own `__provider` left out. */
function differingOutputs(metadata: StepEventMetadata): string[] {
  const old = metadata.old?.outputs ?? {};
  const read = metadata.new?.outputs ?? {};
  return [...new Set([...Object.keys(old), ...Object.keys(read)])].filter(
    (key) => key !== "__provider" && JSON.stringify(old[key]) !== JSON.stringify(read[key]),
  );
}

/** Errors that say the client's service could not be reached (pulumi-crm's transport words them so). */
const UNREACHABLE =
  /the request did not complete|not sent, as .* (refused the connection|did not resolve|failed the TLS handshake)|\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN)\b/;

/** A failed run: unreachable when the service could not be reached, else its first error line. */
function failure(error: unknown, events: EngineEvent[]): RunResult {
  const stderr = stderrOf(error);
  const diagnostics = events.flatMap((event) => (event.diagnosticEvent?.severity === "error" ? [event.diagnosticEvent.message] : []));
  // A resource's own error first: the CLI's closing lines ("update failed") say less.
  const message =
    diagnostics.find((text) => !/^\s*(update|preview|refresh|destroy) failed\s*$/.test(text)) ??
    stderr.split("\n").find((line) => /^\s*error:/.test(line)) ??
    stderr;
  // "Preview failed: " and the like say what the table's Status says already.
  const line = firstLine(message).replace(/^(Preview|Update|Refresh|Destroy) failed:\s*/, "");
  return { status: UNREACHABLE.test([...diagnostics, stderr].join("\n")) ? "unreachable" : "failed", error: line || "the pulumi CLI failed without a message" };
}

/** What the CLI wrote to stderr, kept by the Automation API's CommandError (a private field, read as its text says it is), or by execFile's error. */
function stderrOf(error: unknown): string {
  const failed = error as { commandResult?: { stderr?: string }; stderr?: string };
  return failed.commandResult?.stderr ?? failed.stderr ?? (error instanceof Error ? error.message : String(error));
}

/** The line of a failed CLI call of the fleet's own that says why (the CLI's `error:` line), or that it did not end in time. */
export function cliErrorLine(error: unknown, timeoutSeconds: number): string {
  if ((error as { killed?: boolean }).killed) return `the pulumi CLI did not end in ${timeoutSeconds} s (--timeout)`;
  const stderr = stderrOf(error);
  return firstLine(stderr.split("\n").find((line) => /^\s*error:/.test(line)) ?? stderr);
}
