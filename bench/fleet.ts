// An agency's fleet on one machine: `pulumi-crm fleet` (the installed command) over N client
// stacks of examples/agency, each client a named account of one emulator at the service's
// 5 requests a second, the YAML program on the native plugin and the TypeScript one on the
// dynamic classes. The YAML program runs on the release's plugin, as agencies.md says to: the
// linux-amd64 archive's single executable, installed into the CLI's plugin cache as the CLI
// installs a release (`--plugin bundle`: the bundle `npm run plugins` builds, named by the
// program's `plugins.providers` instead). For each: the first up, a no-op up (and the requests it
// sent), and a drift check with 3 clients changed behind their stacks' backs and 1 whose service
// is gone; each one's wall time and the peak of the memory of every process the fleet command
// runs (itself, the pulumi CLIs, language hosts, programs and plugins), summed at each moment
// twice: resident sets (RSS, which counts the pages of an executable that N processes share N
// times; the issue's figures) and proportional sets (PSS, a shared page divided among its
// processes: what the machine holds). Then,
// with --explicit K,...: one YAML program with K explicit providers, one per client, the same
// resources each: its first up's wall time and peak memory, and the slope per provider. Each
// step also counts the pulumi CLI processes the fleet started (a shim first on PATH logs each),
// per client and by command, and prints today's figures beside its own where the issue measured
// them (issue 48: 100 YAML clients at --parallel 4, the plugin from the npm package's bin).
//
// The state is kept on `--backend`: a folder (file), or a PostgreSQL server of its own
// (postgres, scripts/postgres.ts), or each in turn (file,postgres). `--runners R` splits the
// clients into R shares, as `fleet ci`'s matrix does, each run by a runner of its own PULUMI_HOME
// on the one backend, one after another (each as alone on its machine as a CI runner is): each
// runner's wall time and peak. Each step also prints the CPU time of everything it ran (user and
// system, of every process, once ended) and the backend's size, and on PostgreSQL the statements
// the backend ran (pg_stat_statements).
//
// The stacks' secrets are kept with `--secrets`: a passphrase (the CLI's default), or a key
// service (awskms: moto's AWS emulator, scripts/kms.ts, named by the clients file's
// secretsProvider), whose CPU is printed beside the backend's.
//
//   npx ts-node --transpile-only bench/fleet.ts [--clients 20] [--parallel N (default: the fleet's)] [--programs yaml,ts] [--plugin release|bundle]
//     [--backend file|postgres|file,postgres] [--runners 1] [--steps no-op-up,drift] [--secrets passphrase|awskms] [--explicit 5,10]
//
// Not part of npm test: minutes at 20 clients.

import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { type RunningKms, startKms } from "../scripts/kms";
import { postgresBin, startPostgres } from "../scripts/postgres";
import { buildPlugins } from "../scripts/plugin-bundle";
import { releaseTargets, targetName, writePluginArchive } from "../scripts/plugin-sea";
import { ensureToolchain, ensureYamlLanguageHost, offlineCliEnvironment, programNodeVersion, toolchainPath } from "../scripts/toolchain";
import { installedPackageBin, installProgram, repoRoot } from "../scripts/harness/packed-program";
import { namePluginFolders } from "../scripts/harness/plugin-program";
import { descendantsOf } from "../scripts/harness/process-tree";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess, type RunningEmulatorProcess } from "./emulator-process";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    // Unset: the fleet's own default, per command.
    parallel: { type: "string" },
    programs: { type: "string", default: "yaml,ts" },
    explicit: { type: "string", default: "" },
    plugin: { type: "string", default: "release" },
    backend: { type: "string", default: "file" },
    runners: { type: "string", default: "1" },
    // The steps after the first up, which every run makes.
    steps: { type: "string", default: "no-op-up,drift" },
    secrets: { type: "string", default: "passphrase" },
  },
});
const runnerCount = Number(values.runners);
const steps = new Set(values.steps!.split(","));
const clientCount = Number(values.clients);
const parallel = values.parallel;
const DRIFTED = 3;
const toolchain = ensureToolchain();

/** The resident set and the proportional set of `pid` now, KiB; 0 once it is gone. */
function memoryKiB(pid: number): { rss: number; pss: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    return { rss: Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0), pss: Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

interface Measured {
  code: number;
  stdout: string;
  seconds: number;
  /** The highest sum of the resident sets of the command and everything it started, MiB, sampled every 200 ms. */
  peakMiB: number;
  /** The highest sum of their proportional sets, MiB. */
  peakPssMiB: number;
  /** The most processes alive at once. */
  peakProcesses: number;
  /** At the peak: MiB by kind of process (the fleet command, pulumi, a language host, a program, a plugin or provider host). */
  atPeak: Record<string, number>;
}

const kinds: Array<[string, RegExp]> = [
  ["fleet", / fleet /],
  ["pulumi", /^(\S*\/)?pulumi( |$)/],
  ["language host", /pulumi-language-(yaml|nodejs)|language-host\.js/],
  ["program", /\/cmd\/run/],
  ["plugin", /pulumi-resource-crm|cmd\/dynamic-provider/],
];
const kindOf = (command: string) => kinds.find(([, pattern]) => pattern.test(command))?.[0] ?? "other";

/** Runs `command` with `args` and `env`, sampling the memory of its whole process tree. */
async function measured(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = repoRoot): Promise<Measured> {
  const started = Date.now();
  const child = spawn(command, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let peakKiB = 0;
  let peakPssKiB = 0;
  let peakProcesses = 0;
  let atPeak: Record<string, number> = {};
  const timer = setInterval(() => {
    const tree = [{ pid: child.pid!, command: `${command} ${args.join(" ")}` }, ...descendantsOf(child.pid!)];
    const sizes = tree.map(({ pid, command: line }) => {
      const { rss, pss } = memoryKiB(pid);
      return { kind: kindOf(line), kib: rss, pss };
    });
    const total = sizes.reduce((sum, { kib }) => sum + kib, 0);
    peakPssKiB = Math.max(
      peakPssKiB,
      sizes.reduce((sum, { pss }) => sum + pss, 0),
    );
    if (total > peakKiB) {
      peakKiB = total;
      atPeak = {};
      for (const { kind, kib } of sizes) atPeak[kind] = (atPeak[kind] ?? 0) + kib / 1024;
    }
    peakProcesses = Math.max(peakProcesses, tree.length);
  }, 200);
  const code = await new Promise<number>((resolve) => child.on("close", (exit) => resolve(exit ?? 128)));
  clearInterval(timer);
  if (code !== 0 && code !== 7 && !stdout) process.stderr.write(stderr);
  return { code, stdout, seconds: (Date.now() - started) / 1000, peakMiB: peakKiB / 1024, peakPssMiB: peakPssKiB / 1024, peakProcesses, atPeak };
}

const names = Array.from({ length: clientCount }, (_, index) => `client-${String(index + 1).padStart(3, "0")}`);
const tokenVariable = (stack: string) => `${stack.toUpperCase().replace(/-/g, "_")}_CRM_TOKEN`;

async function emulatorRequests(emulator: RunningEmulatorProcess, accounts: string[]): Promise<number> {
  let total = 0;
  for (const name of accounts) total += ((await (await fetch(`${emulator.accounts[name].crmUrl}/__emulator/stats`)).json()) as { requests: number }).requests;
  return total;
}

async function resetCounters(emulator: RunningEmulatorProcess, accounts: string[]): Promise<void> {
  for (const name of accounts) await fetch(`${emulator.accounts[name].crmUrl}/__emulator/reset-counters`, { method: "POST" });
}

/** What the fleet's table says: the clients of each status. */
function statuses(table: string): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const line of table.split("\n")) {
    const match = /^(client-\d+) +(no change|changed|drift|unreachable|locked|interrupted|failed) +/.exec(line);
    if (match) (found[match[2]] ??= []).push(match[1]);
  }
  return found;
}

/** The drift checks' tables, printed after the figures. */
const tables: string[] = [];

/**
 * Today's figures, before issue 48's work, as the issue measured them: 100 YAML clients at
 * --parallel 4 on 2 cores (load under 1), the plugin from the npm package's bin.
 */
const TODAY: Record<string, { seconds: number; peakMiB: number }> = {
  "first up": { seconds: 156, peakMiB: 1664 },
  "no-op up": { seconds: 123, peakMiB: 1509 },
  "drift check": { seconds: 51, peakMiB: 1120 },
};
const comparable = (program: string, backend: string) =>
  program === "yaml" && backend === "file" && runnerCount === 1 && clientCount === 100 && (parallel ?? "4") === "4";

interface Row {
  program: string;
  backend: string;
  step: string;
  measured: Measured;
  clients: number;
  /** The CPU time of every process the step ran, s. */
  cpuSeconds: number;
  /** The machine's load average (1 minute) as the step began. */
  load: number;
  result: string;
  calls: string;
  /** The backend's figures after the step. */
  backendAfter: string;
}

/** A row of the figures, printed as soon as it is measured: today's beside it where comparable, and the CLI calls it made. */
const row = ({ program, backend, step, measured: m, clients, cpuSeconds, load, result, calls, backendAfter }: Row) =>
  console.log(
    `| ${program} | ${backend} | ${step} | ${clients} | ${m.seconds.toFixed(1)} | ${cpuSeconds.toFixed(1)} (${(cpuSeconds / clients).toFixed(2)}) | ${load.toFixed(1)} | ${m.peakPssMiB.toFixed(0)} | ${m.peakMiB.toFixed(0)} (${Object.entries(
      m.atPeak,
    )
      .map(([kind, mib]) => `${kind} ${mib.toFixed(0)}`)
      .join(
        ", ",
      )}) | ${comparable(program, backend) && TODAY[step] ? `${TODAY[step].seconds} s, ${TODAY[step].peakMiB} MiB` : "-"} | ${calls} | ${m.peakProcesses} | ${m.code} | ${result} | ${backendAfter} |`,
  );

/** A `pulumi` first on PATH that logs each call's command (its first two words) to `log`, then runs the real CLI. */
function countingPulumi(folder: string, log: string): string {
  mkdirSync(folder, { recursive: true });
  const shim = join(folder, "pulumi");
  writeFileSync(shim, `#!/bin/sh\necho "$1 $2" >> '${log}'\nexec '${join(toolchain.cliBin, "pulumi")}' "$@"\n`);
  chmodSync(shim, 0o755);
  return folder;
}

/** The CLI calls logged since the last count, per client and by command (`up 100, config 100`), and the log emptied. */
function callsSince(log: string, clients: number): string {
  if (!existsSync(log)) return "0";
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
  writeFileSync(log, "");
  const byCommand = new Map<string, number>();
  for (const line of lines) {
    const [first, second] = line.split(" ");
    const command = first === "stack" || first === "config" ? `${first} ${second?.startsWith("-") ? "" : (second ?? "")}`.trim() : first;
    byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
  }
  return `${(lines.length / clients).toFixed(2)} a client (${[...byCommand].map(([command, count]) => `${command} ${count}`).join(", ")})`;
}

/** The release's archive of the crm plugin for this machine, when the YAML program runs on it (--plugin release). */
let releaseArchive: string | undefined;
const packageVersion = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

/** Fields of /proc/<pid>/stat after the command's name, the state (field 3) first. */
function statFields(pid: number | "self"): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
}

/** The CPU time (user and system, s) of this process's children that have ended, theirs included (cutime and cstime, fields 16 and 17). */
function endedChildrenCpuSeconds(): number {
  const fields = statFields("self");
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

/** The CPU time (user and system, s) of the running process `pid` itself (utime and stime, fields 14 and 15). */
function ownCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

interface BenchBackend {
  url: string;
  /** Its size now, and on PostgreSQL the statements it ran since the last call. */
  figures(): string;
  stop(): Promise<void>;
}

/** The fleet's state backend for one program's run: a folder of `home`, or a PostgreSQL server of its own counting its statements. */
async function startBackend(kind: string, home: string): Promise<BenchBackend> {
  if (kind === "file") {
    const folder = join(home, "backend");
    mkdirSync(folder);
    return {
      url: `file://${folder}`,
      figures: () => `${(Number(execFileSync("du", ["-sb", folder], { encoding: "utf8" }).split("\t")[0]) / 2 ** 20).toFixed(1)} MiB`,
      stop: async () => undefined,
    };
  }
  const server = await startPostgres("pulumi", ["shared_preload_libraries=pg_stat_statements"]);
  const sql = (query: string) => execFileSync(join(postgresBin(), "psql"), [server.url, "-Atc", query], { encoding: "utf8" }).trim();
  sql("CREATE EXTENSION pg_stat_statements");
  return {
    url: server.url,
    figures: () => {
      const [size, statements] = sql(
        "SELECT pg_database_size(current_database()), (SELECT sum(calls) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database())",
      ).split("|");
      sql("SELECT pg_stat_statements_reset()");
      return `${(Number(size) / 2 ** 20).toFixed(1)} MiB, ${Number(statements).toLocaleString("en-US")} statements`;
    },
    stop: server.stop,
  };
}

/** The key service of `--secrets awskms`, started once for every program's fleet. */
let kms: RunningKms | undefined;

/** The key service's CPU since the last call, for the step's row. */
let kmsCpuBefore = 0;
function kmsFigures(): string {
  if (!kms) return "";
  const cpu = ownCpuSeconds(kms.pid);
  const figure = `; KMS ${(cpu - kmsCpuBefore).toFixed(1)} s CPU`;
  kmsCpuBefore = cpu;
  return figure;
}

async function fleetOf(program: "yaml" | "ts", folder: string, backendKind: string): Promise<void> {
  const reachable = names.slice(0, clientCount - 1);
  const unreachableName = names[clientCount - 1];
  const emulator = await startEmulatorProcess(5, reachable);
  const gone = await startEmulator({ accounts: [{ name: unreachableName }] });
  const home = mkdtempSync(join(os.tmpdir(), `bench-fleet-${program}-`));
  const backend = await startBackend(backendKind, home);
  const address = (name: string) => (name === unreachableName ? gone.accounts[name] : emulator.accounts[name]);
  const clientsFile = join(home, "clients.json");
  writeFileSync(
    clientsFile,
    JSON.stringify({
      program: folder,
      ...(kms && { secretsProvider: kms.url }),
      clients: names.map((stack) => ({
        stack,
        apiUrl: address(stack).crmUrl,
        apiToken: `env:${tokenVariable(stack)}`,
        config: { clientName: `Client ${stack.slice(-3)}`, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
      })),
    }),
  );
  const calls = join(home, "pulumi-calls.log");
  const cliEnvironment = offlineCliEnvironment(home, toolchainPath(toolchain));
  const counting = countingPulumi(join(home, "counting"), calls);
  // The runners' shares, as `fleet ci`'s matrix splits the clients: each runner with a PULUMI_HOME of its own.
  const shares = Array.from({ length: runnerCount }, (_, index) =>
    names.slice(Math.floor((index * clientCount) / runnerCount), Math.floor(((index + 1) * clientCount) / runnerCount)),
  );
  // On a key service, no passphrase: the CLI is not to derive a key.
  const { PULUMI_CONFIG_PASSPHRASE: _passphrase, ...withoutPassphrase } = cliEnvironment;
  const runnerEnv = (index: number) => ({
    ...(kms ? { ...withoutPassphrase, ...kms.env } : cliEnvironment),
    PULUMI_BACKEND_URL: backend.url,
    ...(runnerCount > 1 ? { PULUMI_HOME: join(home, `runner-${index + 1}`) } : {}),
    PATH: `${counting}:${cliEnvironment.PATH}`,
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    ...Object.fromEntries(names.map((stack) => [tokenVariable(stack), address(stack).apiToken])),
  });
  // Installed as the CLI installs a release it downloads: into the plugin cache, where the YAML host finds its schema cached after the first load.
  if (program === "yaml" && releaseArchive) {
    for (const index of shares.keys())
      execFileSync(join(toolchain.cliBin, "pulumi"), ["plugin", "install", "resource", "crm", packageVersion, "--file", releaseArchive], {
        env: runnerEnv(index),
        stdio: "pipe",
      });
  }
  /** A fleet command over every runner's share in turn: a row each; their tables joined. */
  const step = async (name: string, args: string[], result: (stdout: string) => string | Promise<string>): Promise<string> => {
    const tablesOfRunners: string[] = [];
    for (const [index, share] of shares.entries()) {
      const only = runnerCount > 1 ? ["--only", share.join(",")] : [];
      const load = os.loadavg()[0];
      const cpuBefore = endedChildrenCpuSeconds();
      const run = await measured(
        join(toolchain.nodeBin, "node"),
        [installedPackageBin("pulumi-crm"), "fleet", ...args, ...only, "--clients", clientsFile, ...(parallel ? ["--parallel", parallel] : [])],
        runnerEnv(index),
      );
      const cpu = endedChildrenCpuSeconds() - cpuBefore;
      tablesOfRunners.push(run.stdout);
      const label = runnerCount > 1 ? `${name}, runner ${index + 1} of ${runnerCount}` : name;
      row({
        program,
        backend: backendKind,
        step: label,
        measured: run,
        clients: share.length,
        cpuSeconds: cpu,
        load,
        result: await result(run.stdout),
        calls: callsSince(calls, share.length),
        backendAfter: backend.figures() + kmsFigures(),
      });
    }
    return tablesOfRunners.join("\n");
  };
  try {
    await step("first up", ["up"], (stdout) => `${(statuses(stdout).changed ?? []).length} changed`);
    if (steps.has("no-op-up")) {
      await resetCounters(emulator, reachable);
      await step(
        "no-op up",
        ["up"],
        async (stdout) => `${(statuses(stdout)["no change"] ?? []).length} no change, ${await emulatorRequests(emulator, reachable)} requests`,
      );
    }
    if (steps.has("drift")) {
      const drifted = reachable.slice(0, DRIFTED);
      for (const name of drifted) {
        const { crmUrl, apiToken } = emulator.accounts[name];
        const headers = { "Api-Token": apiToken, "Content-Type": "application/json" };
        const [message] = ((await (await fetch(`${crmUrl}/api/3/messages`, { headers })).json()) as { messages: Array<{ id: string }> }).messages;
        await fetch(`${crmUrl}/api/3/messages/${message.id}`, { method: "PUT", headers, body: JSON.stringify({ message: { fromname: "Changed" } }) });
      }
      await gone.close();
      const table = await step(
        "drift check",
        ["drift"],
        (stdout) => `drift: ${(statuses(stdout).drift ?? []).join(", ")}; unreachable: ${(statuses(stdout).unreachable ?? []).join(", ")}`,
      );
      const found = statuses(table);
      const exact =
        JSON.stringify(found.drift ?? []) === JSON.stringify(drifted) && JSON.stringify(found.unreachable ?? []) === JSON.stringify([unreachableName]);
      tables.push(
        `${program} on ${backendKind}, the drift check's table (its clients without drift left out): ${exact ? "exactly the 3 drifted and the 1 unreachable" : "NOT the 3 drifted and the 1 unreachable"}\n${table
          .split("\n")
          .filter((line) => !/ no drift$/.test(line))
          .join("\n")}`,
      );
    }
  } finally {
    emulator.child.kill();
    await gone.close().catch(() => undefined);
    await backend.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** One YAML program with `count` explicit providers, one per client account, the agency's resources under each. */
async function explicitProviders(count: number, plugin: string): Promise<void> {
  const accounts = Array.from({ length: count }, (_, index) => `client-${index + 1}`);
  const emulator = await startEmulatorProcess(5, accounts);
  const program = join(repoRoot, ".work", "programs", `bench-explicit-${count}`);
  rmSync(program, { recursive: true, force: true });
  mkdirSync(program, { recursive: true });
  // examples/agency/yaml's resources, under each client's provider.
  const perClient = accounts.map(
    (name, index) => `  ${name}:
    type: pulumi:providers:crm
    properties:
      apiUrl: ${emulator.accounts[name].crmUrl}
      apiToken:
        fn::secret: ${emulator.accounts[name].apiToken}
  tier${index}:
    type: crm:AccountCustomField
    properties: { fieldLabel: Client tier, fieldType: dropdown, fieldOptions: [Bronze, Silver, Gold] }
    options:
      provider: \${${name}}
  address${index}:
    type: crm:Address
    properties: { companyName: Client ${index}, address1: 1 Main Street, city: Chicago, country: US }
    options:
      provider: \${${name}}
  newsletter${index}:
    type: crm:Message
    properties: { fromname: Client ${index}, fromemail: news@${name}.example, reply2: news@${name}.example, subject: News from Client ${index} }
    options:
      provider: \${${name}}
  branding${index}:
    type: crm:Branding
    properties: { siteName: Client ${index}, footerTextValue: "Client ${index}, 1 Main Street, Chicago" }
    options:
      provider: \${${name}}
`,
  );
  writeFileSync(join(program, "Pulumi.yaml"), `name: bench-explicit\nruntime: yaml\nresources:\n${perClient.join("")}`);
  namePluginFolders(program, { crm: plugin });
  const stack = await CliStack.create(program, "explicit");
  try {
    const load = os.loadavg()[0];
    const cpuBefore = endedChildrenCpuSeconds();
    const up = await measured(
      join(toolchain.cliBin, "pulumi"),
      ["up", "--yes", "--skip-preview", "--stack", "explicit", "--non-interactive"],
      stack.env(),
      program,
    );
    const cpuSeconds = endedChildrenCpuSeconds() - cpuBefore;
    row({
      program: "yaml",
      backend: "file",
      step: `one program, ${count} explicit providers: first up`,
      measured: up,
      clients: count,
      cpuSeconds,
      load,
      result: up.code === 0 ? `${count} accounts deployed` : "FAILED",
      calls: "1",
      backendAfter: "-",
    });
  } finally {
    emulator.child.kill();
    stack.remove();
  }
}

async function main(): Promise<void> {
  if (values.secrets !== "passphrase" && values.secrets !== "awskms") throw new Error(`--secrets ${values.secrets}: passphrase or awskms`);
  ensureYamlLanguageHost(toolchain);
  if (values.secrets === "awskms") {
    kms = await startKms();
    // Its own start is not a step's.
    kmsCpuBefore = ownCpuSeconds(kms.pid);
  }
  const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "bench-fleet"));
  const programs = values.programs!.split(",");
  const folders: Record<string, string> = {};
  if (programs.includes("yaml")) {
    folders.yaml = join(repoRoot, ".work", "programs", "bench-fleet-yaml");
    rmSync(folders.yaml, { recursive: true, force: true });
    cpSync(join(repoRoot, "examples", "agency", "yaml"), folders.yaml, { recursive: true });
    if (values.plugin === "release") {
      const target = releaseTargets.find((candidate) => targetName(candidate) === `linux-${os.arch() === "x64" ? "amd64" : os.arch()}`)!;
      const into = join(repoRoot, ".work", "plugins", "bench-fleet-release");
      mkdirSync(into, { recursive: true });
      releaseArchive = writePluginArchive("crm", packageVersion, join(plugin.folder, "pulumi-resource-crm.js"), target, into, join(into, "work"), 0);
    } else {
      appendFileSync(join(folders.yaml, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: crm\n      path: ${plugin.folder}\n`);
    }
  }
  if (programs.includes("ts")) folders.ts = installProgram(join(repoRoot, "examples", "agency", "typescript"), "bench-fleet-ts", { typeCheck: "once" });
  installedPackageBin("pulumi-crm");
  const cpus = os.cpus();
  console.log(
    `pulumi ${toolchain.cliVersion}, pulumi-language-yaml, programs on Node.js ${programNodeVersion}, the YAML program's plugin ${releaseArchive ? `the release's single executable (${basename(releaseArchive)})` : "the bundle"}; the stacks' secrets kept by ${kms ? "awskms (moto)" : "a passphrase"}; ${clientCount} clients (the last one unreachable at the drift check), --parallel ${parallel ?? "the fleet's default"}; ` +
      `machine: ${cpus.length} CPUs (${cpus[0]?.model ?? "unknown"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(" ")}\n`,
  );
  console.log(
    "| Program | Backend | Step | Clients | Wall s | CPU s (a client) | Load at start | Peak PSS MiB | Peak RSS MiB (all processes at once; by kind) | Today (issue 48, RSS) | pulumi CLI calls | Peak processes | Exit | Result | Backend after |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  try {
    for (const program of programs) for (const backend of values.backend!.split(",")) await fleetOf(program as "yaml" | "ts", folders[program], backend);
  } finally {
    await kms?.stop();
  }
  for (const count of values.explicit!.split(",").filter(Boolean).map(Number)) await explicitProviders(count, plugin.folder);
  console.log(`\n${tables.join("\n")}`);
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
