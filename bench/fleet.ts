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
//   npx ts-node --transpile-only bench/fleet.ts [--clients 20] [--parallel 2] [--programs yaml,ts] [--plugin release|bundle] [--explicit 5,10]
//
// Not part of npm test: minutes at 20 clients.

import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { startEmulator } from "../emulator";
import { buildPlugins } from "../scripts/plugin-bundle";
import { releaseTargets, targetName, writePluginArchive } from "../scripts/plugin-sea";
import { ensureToolchain, ensureYamlLanguageHost, offlineCliEnvironment, programNodeVersion, toolchainPath } from "../scripts/toolchain";
import { installedPackageBin, installProgram, repoRoot } from "../test/support/packed-program";
import { namePluginFolders } from "../test/support/plugin-program";
import { descendantsOf } from "../test/support/process-tree";
import { CliStack } from "../test/support/pulumi-cli";
import { startEmulatorProcess, type RunningEmulatorProcess } from "./emulator-process";

const { values } = parseArgs({
  options: {
    clients: { type: "string", default: "20" },
    parallel: { type: "string", default: String(os.availableParallelism()) },
    programs: { type: "string", default: "yaml,ts" },
    explicit: { type: "string", default: "" },
    plugin: { type: "string", default: "release" },
  },
});
const clientCount = Number(values.clients);
const parallel = values.parallel!;
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
    peakPssKiB = Math.max(peakPssKiB, sizes.reduce((sum, { pss }) => sum + pss, 0));
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
const comparable = (program: string) => program === "yaml" && clientCount === 100 && parallel === "4";

/** A row of the figures, printed as soon as it is measured: today's beside it where comparable, and the CLI calls it made. */
const row = (program: string, step: string, m: Measured, result: string, calls = "") =>
  console.log(
    `| ${program} | ${step} | ${m.seconds.toFixed(1)} | ${m.peakPssMiB.toFixed(0)} | ${m.peakMiB.toFixed(0)} (${Object.entries(m.atPeak)
      .map(([kind, mib]) => `${kind} ${mib.toFixed(0)}`)
      .join(", ")}) | ${comparable(program) && TODAY[step] ? `${TODAY[step].seconds} s, ${TODAY[step].peakMiB} MiB` : "-"} | ${calls} | ${m.peakProcesses} | ${m.code} | ${result} |`,
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
function callsSince(log: string): string {
  if (!existsSync(log)) return "0";
  const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
  writeFileSync(log, "");
  const byCommand = new Map<string, number>();
  for (const line of lines) {
    const [first, second] = line.split(" ");
    const command = first === "stack" || first === "config" ? `${first} ${second?.startsWith("-") ? "" : (second ?? "")}`.trim() : first;
    byCommand.set(command, (byCommand.get(command) ?? 0) + 1);
  }
  return `${(lines.length / clientCount).toFixed(2)} a client (${[...byCommand].map(([command, count]) => `${command} ${count}`).join(", ")})`;
}

/** The release's archive of the crm plugin for this machine, when the YAML program runs on it (--plugin release). */
let releaseArchive: string | undefined;
const packageVersion = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

async function fleetOf(program: "yaml" | "ts", folder: string): Promise<void> {
  const reachable = names.slice(0, clientCount - 1);
  const unreachableName = names[clientCount - 1];
  const emulator = await startEmulatorProcess(5, reachable);
  const gone = await startEmulator({ accounts: [{ name: unreachableName }] });
  const home = mkdtempSync(join(os.tmpdir(), `bench-fleet-${program}-`));
  mkdirSync(join(home, "backend"));
  const address = (name: string) => (name === unreachableName ? gone.accounts[name] : emulator.accounts[name]);
  const clientsFile = join(home, "clients.json");
  writeFileSync(
    clientsFile,
    JSON.stringify({
      program: folder,
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
  const env = {
    ...cliEnvironment,
    PATH: `${countingPulumi(join(home, "counting"), calls)}:${cliEnvironment.PATH}`,
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    ...Object.fromEntries(names.map((stack) => [tokenVariable(stack), address(stack).apiToken])),
  };
  // Installed as the CLI installs a release it downloads: into the plugin cache, where the YAML host finds its schema cached after the first load.
  if (program === "yaml" && releaseArchive) execFileSync(join(toolchain.cliBin, "pulumi"), ["plugin", "install", "resource", "crm", packageVersion, "--file", releaseArchive], { env, stdio: "pipe" });
  const fleet = (...args: string[]) => measured(join(toolchain.nodeBin, "node"), [installedPackageBin("pulumi-crm"), "fleet", ...args, "--clients", clientsFile, "--parallel", parallel], env);
  try {
    const first = await fleet("up");
    row(program, "first up", first, `${(statuses(first.stdout).changed ?? []).length} changed`, callsSince(calls));
    await resetCounters(emulator, reachable);
    const again = await fleet("up");
    row(program, "no-op up", again, `${(statuses(again.stdout)["no change"] ?? []).length} no change, ${await emulatorRequests(emulator, reachable)} requests`, callsSince(calls));

    const drifted = reachable.slice(0, DRIFTED);
    for (const name of drifted) {
      const { crmUrl, apiToken } = emulator.accounts[name];
      const headers = { "Api-Token": apiToken, "Content-Type": "application/json" };
      const [message] = ((await (await fetch(`${crmUrl}/api/3/messages`, { headers })).json()) as { messages: Array<{ id: string }> }).messages;
      await fetch(`${crmUrl}/api/3/messages/${message.id}`, { method: "PUT", headers, body: JSON.stringify({ message: { fromname: "Changed" } }) });
    }
    await gone.close();
    const drift = await fleet("drift");
    const found = statuses(drift.stdout);
    const exact = JSON.stringify(found.drift ?? []) === JSON.stringify(drifted) && JSON.stringify(found.unreachable ?? []) === JSON.stringify([unreachableName]);
    row(program, "drift check", drift, `drift: ${(found.drift ?? []).join(", ")}; unreachable: ${(found.unreachable ?? []).join(", ")}; ${exact ? "exactly those" : "NOT the 3 drifted and the 1 unreachable"}`, callsSince(calls));
    tables.push(`${program}, the drift check's table (its clients without drift left out):\n${drift.stdout.split("\n").filter((line) => !/ no drift$/.test(line)).join("\n")}`);
  } finally {
    emulator.child.kill();
    await gone.close().catch(() => undefined);
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
    const up = await measured(join(toolchain.cliBin, "pulumi"), ["up", "--yes", "--skip-preview", "--stack", "explicit", "--non-interactive"], stack.env(), program);
    row("yaml", `one program, ${count} explicit providers: first up`, up, up.code === 0 ? `${count} accounts deployed` : "FAILED", "1");
  } finally {
    emulator.child.kill();
    stack.remove();
  }
}

async function main(): Promise<void> {
  ensureYamlLanguageHost(toolchain);
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
    `pulumi ${toolchain.cliVersion}, pulumi-language-yaml, programs on Node.js ${programNodeVersion}, the YAML program's plugin ${releaseArchive ? `the release's single executable (${basename(releaseArchive)})` : "the bundle"}; ${clientCount} clients (the last one unreachable at the drift check), --parallel ${parallel}; ` +
      `machine: ${cpus.length} CPUs (${cpus[0]?.model ?? "unknown"}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}\n`,
  );
  console.log("| Program | Step | Wall s | Peak PSS MiB | Peak RSS MiB (all processes at once; by kind) | Today (issue 48, RSS) | pulumi CLI calls | Peak processes | Exit | Result |\n|---|---|---|---|---|---|---|---|---|---|");
  for (const program of programs) await fleetOf(program as "yaml" | "ts", folders[program]);
  for (const count of values.explicit!.split(",").filter(Boolean).map(Number)) await explicitProviders(count, plugin.folder);
  console.log(`\n${tables.join("\n")}`);
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
