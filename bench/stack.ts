// A stack of N accounts through the test engine against the emulator at the real
// service's limit (5 requests per second per account): up, no-op up, drift check
// (`refresh --preview-only --expect-no-changes`) and destroy, for pulumi-crm and for a
// dynamic provider written as Pulumi's documentation shows (bench/docs-style). Per
// phase: requests, 429 answers, wall time, and the provider host's peak RSS.
//
//   npm run bench [-- --accounts 50,200,500] [--parallel 8]
//
// Not part of npm test: it takes minutes (a stack's wall time is its requests / 5).

import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { runEngine, type Command } from "../test/engine/engine";
import { installProgram } from "../test/support/packed-program";

interface RunningEmulatorProcess {
  crmUrl: string;
  apiToken: string;
  child: ChildProcess;
}

interface Figures {
  requests: number;
  rejected: number;
  seconds: number;
  /** MiB; undefined when /proc is not readable. */
  hostPeakRss?: number;
}

const phases: Array<{ name: string; command: Command; previewOnly?: boolean }> = [
  { name: "up", command: "up" },
  { name: "no-op up", command: "up" },
  { name: "drift check", command: "refresh", previewOnly: true },
  { name: "destroy", command: "destroy" },
];

async function startEmulatorProcess(): Promise<RunningEmulatorProcess> {
  const bin = path.resolve(__dirname, "../emulator/bin.ts");
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", bin, "--rate-limit", "5", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The bin's first stdout line is a JSON object with the addresses and the key.
  const [firstLine] = await Promise.race([
    createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next().then((line) => [line.value as string]),
    new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)))),
  ]);
  const { crmUrl, apiToken } = JSON.parse(firstLine) as { crmUrl: string; apiToken: string };
  return { crmUrl, apiToken, child };
}

async function stats(emulator: RunningEmulatorProcess): Promise<{ requests: number; byStatus: Record<string, number> }> {
  return (await (await fetch(`${emulator.crmUrl}/__emulator/stats`)).json()) as { requests: number; byStatus: Record<string, number> };
}

/**
 * The largest VmHWM (peak resident set) of this process's provider hosts while `run`
 * runs, sampled from Linux's /proc; undefined where /proc cannot be read.
 */
async function withHostPeakRss<T>(run: () => Promise<T>): Promise<{ result: T; peakMiB?: number }> {
  let peakKiB: number | undefined;
  const sample = () => {
    let entries: string[];
    try {
      entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
    } catch {
      return;
    }
    for (const pid of entries) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) !== process.pid) continue;
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider")) continue;
        const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
        if (kib) peakKiB = Math.max(peakKiB ?? 0, kib);
      } catch {
        // The process ended between listing and reading.
      }
    }
  };
  const timer = setInterval(sample, 100);
  try {
    const result = await run();
    return { result, peakMiB: peakKiB === undefined ? undefined : peakKiB / 1024 };
  } finally {
    clearInterval(timer);
  }
}

async function runStack(emulator: RunningEmulatorProcess, program: string, accounts: number, parallel: number | undefined): Promise<Figures[]> {
  const stateFile = path.join(program, "state.json");
  rmSync(stateFile, { force: true });
  const figures: Figures[] = [];
  for (const phase of phases) {
    const before = await stats(emulator);
    const started = Date.now();
    const { result, peakMiB } = await withHostPeakRss(() =>
      runEngine({
        command: phase.command,
        cwd: program,
        stack: "bench",
        stateFile,
        parallel,
        config: { "crm:apiUrl": emulator.crmUrl, count: String(accounts) },
        secrets: { "crm:apiToken": emulator.apiToken },
        previewOnly: phase.previewOnly,
        expectNoChanges: phase.previewOnly,
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    if (result.exitCode !== 0) throw new Error(`${phase.name} of ${program} exited ${result.exitCode}:\n${[...result.lines, ...result.diagnostics].join("\n")}`);
    const after = await stats(emulator);
    figures.push({
      requests: after.requests - before.requests,
      rejected: (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0),
      seconds,
      hostPeakRss: peakMiB,
    });
  }
  return figures;
}

const ratio = (docs: number, crm: number) => (crm === 0 ? (docs === 0 ? "=" : "∞") : `${(docs / crm).toFixed(1)}×`);
const mib = (value?: number) => (value === undefined ? "not measured" : value.toFixed(0));

function table(accounts: number, parallel: number, crm: Figures[], docs: Figures[]): string {
  const header = "| N | phase | requests crm / docs (×) | 429s crm / docs | wall s crm / docs (×) | host peak RSS MiB crm / docs |";
  const rows = phases.map((phase, index) => {
    const [c, d] = [crm[index], docs[index]];
    return `| ${accounts} | ${phase.name} | ${c.requests} / ${d.requests} (${ratio(d.requests, c.requests)}) | ${c.rejected} / ${d.rejected} | ${c.seconds.toFixed(1)} / ${d.seconds.toFixed(1)} (${ratio(d.seconds, c.seconds)}) | ${mib(c.hostPeakRss)} / ${mib(d.hostPeakRss)} |`;
  });
  return [`N = ${accounts}, P = ${parallel}`, "", header, "|---|---|---|---|---|---|", ...rows].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { accounts: { type: "string", default: "50,200,500" }, parallel: { type: "string" } } });
  const sizes = values.accounts!.split(",").map(Number);
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  // The engine's own default when none is given: PULUMI_PARALLEL, else 4 per CPU, as the CLI.
  const effectiveParallel = parallel ?? (Number(process.env.PULUMI_PARALLEL) || 4 * os.cpus().length);
  const crmProgram = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/many-accounts"), "bench-pulumi-crm");
  const docsProgram = installProgram(path.resolve(__dirname, "docs-style"), "bench-docs-style");
  const emulator = await startEmulatorProcess();
  try {
    console.log(`machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "unknown"}), node ${process.version}; emulator rate limit 5 req/s\n`);
    for (const accounts of sizes) {
      const crm = await runStack(emulator, crmProgram, accounts, parallel);
      const docs = await runStack(emulator, docsProgram, accounts, parallel);
      console.log(`${table(accounts, effectiveParallel, crm, docs)}\n`);
    }
  } finally {
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
