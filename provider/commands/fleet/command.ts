// `pulumi-crm fleet`: an agency's client stacks, from one clients file. See sdk-docs/agencies.md.

import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { type ClientsFile, ClientsFileError, readClientsFile, selectClients } from "./clients";
import { fleetWorkflows } from "./ci";
import { programSettings, refuseUnknownSettings } from "./program";
import { formatJson, formatTable } from "./report";
import { type ClientOutcome, exitCodeOf, firstLine, type Operation, operations, runFleet } from "./run";

export const FLEET_USAGE =
  "usage: pulumi-crm fleet sync|preview|up|drift|destroy [--clients FILE] [--program DIR] [--only STACK,...] [--parallel N] [--timeout SECONDS] [--refresh] [--json] [--pulumi PATH]\n" +
  "       pulumi-crm fleet offboard --only STACK,... [--clients FILE] [--program DIR] [--json] [--pulumi PATH]\n" +
  "       pulumi-crm fleet ci [--clients FILE] [--out DIR] [--cron CRON] [--per-job N] [--max-parallel N]";

/**
 * Memory one client's run in flight holds at its peak, rounded up: measured by bench/fleet.ts, a
 * TypeScript program's `up` about 584 MiB (the CLI, the language host, the program, the dynamic
 * provider host), a YAML one's about 378 MiB.
 */
const MEMORY_PER_RUN = 640 * 1024 * 1024;

/**
 * Runs at once unless --parallel says: two a core, as far as the machine's memory allows. A run
 * waits on its account's rate limit and on processes starting as much as it computes. A drift
 * check read in the fleet's own process (drift.ts) is one CLI call and a client's reads, which
 * wait on its account's 5 requests a second: eight a core, as far as memory allows a stack the
 * engine must refresh instead.
 */
export function defaultParallel(operation: Operation, cores = availableParallelism(), memory = totalmem()): number {
  return Math.max(1, Math.min((operation === "drift" ? 8 : 2) * cores, Math.floor(memory / MEMORY_PER_RUN)));
}

export const FLEET_HELP = [
  FLEET_USAGE,
  "",
  "Runs each client's stack of an agency's fleet, named in a clients file (JSON: the program, the",
  "stacks' secrets provider, and per client its stack, apiUrl, where its key comes from, its settings;",
  "see sdk-docs/agencies.md):",
  "",
  "  sync      creates each client's stack if missing and writes its settings (crm:apiUrl, crm:apiToken",
  "            as a secret, the client's config)",
  "  preview   sync, then `pulumi preview` of each stack",
  "  up        sync, then `pulumi up` of each stack",
  "  drift     each stack's objects read back with its current settings, as `pulumi refresh",
  "            --preview-only --run-program` reads them: which resources and fields differ in the account",
  "  destroy   `pulumi destroy` of each stack",
  "  offboard  for stacks the clients file no longer names (--only): `pulumi destroy`, then `pulumi stack rm`",
  "  ci        writes GitHub Actions workflows whose matrix is the clients file: a daily drift check and",
  "            a pull-request preview, each job running this command on its share of the stacks",
  "",
  "A few clients run at once; a client that fails, is unreachable or whose stack another run holds is",
  "reported and never stops the others. At the end, a table: each client's status, time and result.",
  "A first Ctrl-C starts no more clients and lets the running ones stop cleanly, then prints the table.",
  "Exit code: 130 if interrupted; 1 if any client failed, was unreachable, locked or left interrupted;",
  "else 7 if any drifted; else 0.",
  "",
  "options (--parallel 4 or --parallel=4):",
  "  --clients FILE      the clients file (default: clients.json)",
  '  --program DIR       the program folder, instead of the clients file\'s "program"',
  "  --only STACK,...    these clients only",
  `  --parallel N        clients at once (default here: ${defaultParallel("up")}, ${defaultParallel("drift")} for drift: two a core, eight for drift, as memory allows)`,
  "  --timeout SECONDS   a client's run is stopped after this long and reported failed (default 1800)",
  "  --refresh           up, preview: refresh each stack from its account first (repairs drift)",
  "  --json              the report as JSON on stdout, for CI (progress stays on stderr)",
  "  --pulumi PATH       the pulumi CLI, or its folder (default: the one on PATH)",
  "  --out DIR           ci: where the workflows go (default: the repository root's .github/workflows)",
  '  --cron CRON         ci: when the drift check runs, UTC (default: "17 6 * * *")',
  "  --per-job N         ci: stacks per job (default 1)",
  "  --max-parallel N    ci: jobs at once (default 20)",
  "",
  "examples:",
  "  ACME_CRM_TOKEN=... npx pulumi-crm fleet up --clients clients.json",
  "  npx pulumi-crm fleet drift --parallel 4 --json > drift.json",
  "",
].join("\n");

interface FleetArguments {
  command: Operation | "ci";
  clients: string;
  program?: string;
  only?: string[];
  parallel?: number;
  timeout: number;
  json: boolean;
  refresh: boolean;
  pulumi?: string;
  /** ci: where the workflows go; by default the repository root's .github/workflows. */
  out?: string;
  cron: string;
  perJob: number;
  maxParallel: number;
}

const VALUE_FLAGS: Record<string, keyof FleetArguments> = {
  "--clients": "clients",
  "--program": "program",
  "--only": "only",
  "--parallel": "parallel",
  "--timeout": "timeout",
  "--pulumi": "pulumi",
  "--out": "out",
  "--cron": "cron",
  "--per-job": "perJob",
  "--max-parallel": "maxParallel",
};
const NUMBER_FLAGS = new Set<keyof FleetArguments>(["parallel", "timeout", "perJob", "maxParallel"]);
const CI_FLAGS = new Set<keyof FleetArguments>(["out", "cron", "perJob", "maxParallel"]);

/** Parses `fleet <command> [flags]`; throws an Error whose message explains the problem. */
export function parseFleetArguments(argv: readonly string[]): FleetArguments {
  const [command, ...rest] = argv;
  if (command === undefined) throw new Error("fleet needs a command: sync, preview, up, drift, destroy or ci");
  if (command !== "ci" && !(operations as readonly string[]).includes(command))
    throw new Error(`unknown fleet command "${command}"; the commands are sync, preview, up, drift, destroy, offboard and ci`);
  const parsed: FleetArguments = {
    command: command as FleetArguments["command"],
    clients: "clients.json",
    timeout: 1800,
    json: false,
    refresh: false,
    cron: "17 6 * * *",
    perJob: 1,
    maxParallel: 20,
  };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--json") {
      parsed.json = true;
      continue;
    }
    if (rest[i] === "--refresh") {
      if (command !== "up" && command !== "preview") throw new Error("--refresh is an option of fleet up and fleet preview");
      parsed.refresh = true;
      continue;
    }
    const [name, inlineValue] = rest[i].split(/=(.*)/s, 2);
    const option = VALUE_FLAGS[name];
    if (!option) throw new Error(`unknown argument "${rest[i]}"`);
    if (CI_FLAGS.has(option) !== (command === "ci") && option !== "clients" && option !== "program")
      throw new Error(`${name} is ${command === "ci" ? "not an option of fleet ci" : "an option of fleet ci only"}`);
    const value = inlineValue ?? rest[++i];
    if (value === undefined || value === "") throw new Error(`${name} needs a value`);
    if (NUMBER_FLAGS.has(option)) {
      if (!/^[1-9]\d*$/.test(value)) throw new Error(`${name} must be a whole number of at least 1, got "${value}"`);
      (parsed as unknown as Record<string, unknown>)[option] = Number(value);
    } else if (option === "only") {
      parsed.only = value
        .split(",")
        .map((stack) => stack.trim())
        .filter(Boolean);
    } else {
      (parsed as unknown as Record<string, unknown>)[option] = value;
    }
  }
  if (command === "ci" && parsed.json) throw new Error("--json is not an option of fleet ci");
  if (command === "offboard" && !parsed.only?.length)
    throw new Error("fleet offboard needs --only: the stacks to destroy and remove, which the clients file no longer names");
  return parsed;
}

/** The `pulumi` the Automation API runs: --pulumi's folder first on PATH. */
function usePulumi(path: string): void {
  const folder = statSync(path).isDirectory() ? resolve(path) : dirname(resolve(path));
  process.env.PATH = [folder, process.env.PATH ?? ""].join(delimiter);
}

/** Errors of the CLI's set-up that every client's run meets alike: the secrets passphrase, the backend's login or its database. */
const EVERY_CLIENTS = /PULUMI_CONFIG_PASSPHRASE|passphrase must be set|incorrect passphrase|pulumi login|PULUMI_ACCESS_TOKEN|unable to open state database/i;

/** The row of a client that did not start, after a problem of every client's. */
const NOT_STARTED = "not started: the problem above is every client's";

/** The git repository's root holding `folder` (the nearest folder above it with `.git`), else `folder`. */
function repositoryRoot(folder: string): string {
  for (let candidate = resolve(folder); ; candidate = dirname(candidate)) {
    if (existsSync(join(candidate, ".git"))) return candidate;
    if (dirname(candidate) === candidate) return resolve(folder);
  }
}

/** `pulumi-crm fleet ...`: the exit code. */
export async function fleetMain(argv: readonly string[]): Promise<number> {
  if (argv.some((argument) => argument === "--help" || argument === "-h")) {
    process.stdout.write(FLEET_HELP);
    return 0;
  }
  let args: FleetArguments;
  let file: ClientsFile;
  let offboarded: string[] = [];
  // Every client of the file, whatever --only selects: the stacks the backend holds beyond these are the ones the file no longer names.
  let named: string[] = [];
  try {
    args = parseFleetArguments(argv);
    file = readClientsFile(args.clients, args.program);
    named = file.clients.map((client) => client.stack);
    if (args.command === "offboard") {
      offboarded = args.only!;
      const still = offboarded.filter((stack) => named.includes(stack));
      if (still.length)
        throw new ClientsFileError(
          `fleet offboard: ${still.join(", ")} ${still.length === 1 ? "is" : "are"} still a client in ${file.path}: remove ${still.length === 1 ? "it" : "them"} from the file first`,
        );
    } else {
      file = { ...file, clients: selectClients(file.clients, args.only) };
      if (args.command !== "ci") refuseUnknownSettings(file, programSettings(file.program));
    }
    if (args.pulumi) usePulumi(args.pulumi);
  } catch (error) {
    process.stderr.write(
      `pulumi-crm fleet: ${(error as Error).message}\n${error instanceof ClientsFileError ? "" : `${FLEET_USAGE}\n(pulumi-crm fleet --help explains each option)\n`}`,
    );
    return 2;
  }

  if (args.command === "ci") {
    // GitHub reads workflows from the repository's root, wherever the command runs; their paths are relative to it.
    const root = repositoryRoot(process.cwd());
    args.out ??= join(root, ".github", "workflows");
    let workflows: Record<string, string>;
    try {
      workflows = fleetWorkflows(file, { root, perJob: args.perJob, maxParallel: args.maxParallel, cron: args.cron });
    } catch (error) {
      process.stderr.write(`pulumi-crm fleet ci: ${(error as Error).message}\n`);
      return 2;
    }
    const out = args.out;
    mkdirSync(out, { recursive: true });
    for (const [name, text] of Object.entries(workflows)) writeFileSync(join(out, name), text);
    process.stdout.write(
      `Wrote ${Object.keys(workflows)
        .map((name) => join(out, name))
        .join(" and ")}: ${file.clients.length} clients, ${Math.ceil(file.clients.length / args.perJob)} jobs each.\n`,
    );
    return 0;
  }

  const operation = args.command;
  const targets: Array<{ stack: string }> = operation === "offboard" ? offboarded.map((stack) => ({ stack })) : file.clients;
  const parallel = args.parallel ?? defaultParallel(operation);
  const say = (line: string) => process.stderr.write(`pulumi-crm fleet ${operation}: ${line}\n`);
  say(`${targets.length} client${targets.length === 1 ? "" : "s"} of ${file.path}, ${Math.min(parallel, targets.length)} at a time, program ${file.program}`);
  const { backendOf, cliErrorLine, fleetWorkspace, hasStack, otherSecretsProviders, runClient } = await import("./automation");
  let workspace: Awaited<ReturnType<typeof fleetWorkspace>>;
  let project: string;
  let pluginVersion: string | undefined;
  try {
    let namesPluginRelease: boolean;
    ({ project, namesPluginRelease, pluginVersion } = programSettings(file.program));
    workspace = await fleetWorkspace(file.program, namesPluginRelease);
  } catch (error) {
    process.stderr.write(`pulumi-crm fleet: ${cliProblem(error, file.program)}\n`);
    return 1;
  }
  let backend: Awaited<ReturnType<typeof backendOf>>;
  try {
    backend = await backendOf(workspace, args.timeout);
  } catch (error) {
    // Every client's problem, found before any client is touched: said once, in the first row.
    const problem = `the backend could not be used: ${cliErrorLine(error, args.timeout)}; check PULUMI_BACKEND_URL (or \`pulumi login\`) and that the backend answers`;
    const outcomes: ClientOutcome[] = targets.map((client, index) => ({
      stack: client.stack,
      status: "failed",
      error: index ? NOT_STARTED : problem,
      seconds: 0,
    }));
    say("no client started: the backend could not be used (the first row says why)");
    process.stdout.write(args.json ? formatJson(outcomes, operation) : formatTable(outcomes, operation));
    return exitCodeOf(outcomes);
  }
  const options = {
    workspace,
    project,
    timeoutSeconds: args.timeout,
    stacks: backend.stacks,
    backend: backend.url,
    refresh: args.refresh,
    secretsProvider: file.secretsProvider,
  };
  const unnamed = [...options.stacks].filter((stack) => ![...named, ...offboarded].some((client) => hasStack(new Set([stack]), client)));
  if (unnamed.length) {
    say(
      `warning: the backend holds stack${unnamed.length === 1 ? "" : "s"} that ${file.path} no longer names: ${unnamed.join(", ")}; their objects stay in their accounts. \`pulumi-crm fleet offboard --only ${unnamed.join(",")}\` destroys them and removes the stacks`,
    );
  }
  if (file.secretsProvider && operation !== "offboard") {
    const existing = targets.filter((client) => hasStack(options.stacks, client.stack)).map((client) => client.stack);
    const others = await otherSecretsProviders(workspace, existing, file.secretsProvider);
    if (others.length)
      say(
        `warning: ${others.map(({ stack, provider }) => `${stack} (${provider})`).join(", ")} ${others.length === 1 ? "keeps its" : "keep their"} secrets with another provider than the file's secretsProvider; \`pulumi stack change-secrets-provider --stack <stack> '${file.secretsProvider}'\` moves a stack's secrets to it`,
      );
  }
  if (operation === "offboard") {
    const missing = offboarded.filter((stack) => !hasStack(options.stacks, stack));
    if (missing.length) {
      process.stderr.write(`pulumi-crm fleet: offboard: the backend holds no stack ${missing.join(", ")}\n`);
      return 2;
    }
  }

  // Every client's deployment on one plugin, where the CLI would run the release's (shared-plugin.ts).
  const { installedRelease, sharesPlugin, startSharedPlugin } = await import("./shared-plugin");
  // Not for sync, which deploys nothing, nor drift, which reads most stacks itself (drift.ts).
  const release =
    operation !== "sync" && operation !== "drift" && pluginVersion && sharesPlugin(workspace) ? installedRelease(pluginVersion, process.env) : undefined;
  const plugin = release ? await startSharedPlugin(release, workspace, say) : undefined;

  // The first Ctrl-C (which a terminal also sends the running CLIs, and each stops its update
  // cleanly) starts no more clients; the table follows once the running ones have ended.
  let interrupted = false;
  const onInterrupt = () => {
    if (!interrupted) say("interrupted: no more clients start; the running ones stop cleanly, then the table");
    interrupted = true;
  };
  process.on("SIGINT", onInterrupt);
  // A problem of every client's (no passphrase, no login) is said once, and stops the fleet.
  let everyClients: string | undefined;
  let outcomes: ClientOutcome[];
  try {
    outcomes = await runFleet(targets, operation, {
      parallel,
      stopped: () =>
        interrupted
          ? { status: "interrupted", error: "not started: interrupted (Ctrl-C)" }
          : everyClients
            ? { status: "failed", error: NOT_STARTED }
            : undefined,
      runOne: async (client: { stack: string }, op: Operation) => {
        const result = await runClient(client, op, options);
        if (interrupted && result.status === "failed") return { ...result, status: "interrupted" };
        if (result.status !== "failed" || !EVERY_CLIENTS.test(result.error ?? "")) return result;
        if (everyClients) return { ...result, error: "the problem above, every client's" };
        // The CLI says a passphrase is wrong, not where the right one goes.
        if (/incorrect passphrase/i.test(result.error ?? "") && !/PULUMI_CONFIG_PASSPHRASE/.test(result.error ?? ""))
          result.error += ": set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) to the passphrase of the stacks' secrets";
        everyClients = result.error;
        say(`no more clients start: ${client.stack}'s error is every client's, not its own`);
        return result;
      },
      progress: {
        started: (client, index, total) => say(`[${index + 1}/${total}] ${client.stack}: started`),
        finished: (outcome, done, total) =>
          say(`[${done}/${total} done] ${outcome.stack}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""} in ${outcome.seconds.toFixed(1)} s`),
      },
    });
  } finally {
    process.off("SIGINT", onInterrupt);
    await plugin?.stop();
  }
  process.stdout.write(args.json ? formatJson(outcomes, operation, interrupted) : formatTable(outcomes, operation, interrupted));
  if (interrupted) {
    const stopped = outcomes.filter((outcome) => outcome.status === "interrupted" && outcome.seconds > 0).map((outcome) => outcome.stack);
    if (stopped.length)
      say(
        `the next \`pulumi-crm fleet ${operation}\` names any lock or pending operation the stopped runs left (${stopped.join(", ")}), with the command that clears it`,
      );
  }
  return exitCodeOf(outcomes, interrupted);
}

/** Why the fleet could not start: the pulumi CLI missing, named as such, else the CLI's first line. */
function cliProblem(error: unknown, program: string): string {
  const text = error instanceof Error ? error.message : String(error);
  if ((error as NodeJS.ErrnoException).code === "ENOENT" || /ENOENT|\bcode: -2\b/.test(text)) {
    return "the pulumi CLI was not found: install it (https://www.pulumi.com/docs/install/) and put it on PATH, or give --pulumi PATH";
  }
  return `the pulumi CLI or the program ${program} could not be used: ${firstLine(text)}`;
}
