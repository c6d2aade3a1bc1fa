// A stack of N accounts on the real `pulumi` CLI (scripts/toolchain.ts: Node.js 24, the
// repository's @pulumi/pulumi) against the emulator at the real service's limit (5 requests per
// second per account): up, no-op up, drift check (`refresh --preview-only --expect-no-changes`)
// and destroy, for pulumi-crm and for a dynamic provider written as Pulumi's documentation shows
// (bench/docs-style). Per phase: requests, 429 answers, wall time, the provider host's peak RSS
// and the machine's load. Then a mixed stack (bench/mixed: accounts with custom-field values,
// addresses, messages) for pulumi-crm alone, with the drift check's requests per type.
//
//   npm run bench [-- --accounts 50,200,500] [--mixed 50] [--parallel 8]
//
// Not part of npm test: it takes minutes (a stack's wall time is its requests / 5).

import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { emulatorStats } from "../scripts/harness/emulator";
import { installProgram } from "../scripts/harness/packed-program";
import { CliStack, type CliResult } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess, type RunningEmulatorProcess } from "./emulator-process";
import { measure, peakMiB, runsOn } from "./processes";

interface Figures {
  requests: number;
  rejected: number;
  /** Requests by resource type (see typeOfRoute). */
  byType: Record<string, number>;
  seconds: number;
  /** MiB; undefined when /proc is not readable. */
  hostPeakRss?: number;
  /** The machine's load when the phase started. */
  load: string;
}

// As a user types them: `up` and `destroy` preview first.
const phases: Array<{ name: string; run: (stack: CliStack, flags: string[]) => Promise<CliResult>; driftCheck?: boolean }> = [
  { name: "up", run: (stack, flags) => stack.up(...flags) },
  { name: "no-op up", run: (stack, flags) => stack.up(...flags) },
  { name: "drift check", run: (stack, flags) => stack.driftCheck(...flags), driftCheck: true },
  { name: "destroy", run: (stack, flags) => stack.destroy(...flags) },
];

type Stats = Awaited<ReturnType<typeof emulatorStats>>;

/** The resource type a request serves, by the collection it goes to. */
const typeOfRoute = (route: string): string => {
  const collection = /^\S+ \/api\/3\/([^/]+)/.exec(route)?.[1] ?? "other";
  const types: Record<string, string> = {
    accounts: "crm.Account",
    accountCustomFieldMeta: "crm.AccountCustomField",
    accountCustomFieldData: "crm.AccountCustomFieldValue",
    addresses: "crm.Address",
    addressGroups: "crm.Address",
    addressLists: "crm.Address",
    messages: "crm.Message",
  };
  return types[collection] ?? collection;
};

function requestsByType(before: Stats, after: Stats): Record<string, number> {
  const byType: Record<string, number> = {};
  for (const [route, count] of Object.entries(after.byRoute)) {
    const sent = count - (before.byRoute[route] ?? 0);
    if (sent > 0) byType[typeOfRoute(route)] = (byType[typeOfRoute(route)] ?? 0) + sent;
  }
  return byType;
}

async function runStack(
  emulator: RunningEmulatorProcess,
  program: string,
  accounts: number,
  parallel: number | undefined,
  stackPhases: typeof phases = phases,
): Promise<Figures[]> {
  // A stack per size: the CLI keeps a stack's configuration in the program's folder
  // (Pulumi.<stack>.yaml), where a stack of the same name would find it. `count` without a
  // namespace: the CLI reads it as the project's.
  const stack = await CliStack.create(program, `accounts-${accounts}`, {
    config: { "crm:apiUrl": emulator.crmUrl, count: String(accounts) },
    secrets: { "crm:apiToken": emulator.apiToken },
  });
  const flags = parallel === undefined ? [] : ["--parallel", String(parallel)];
  const figures: Figures[] = [];
  try {
    for (const phase of stackPhases) {
      const before = await emulatorStats(emulator);
      const { result, processes, seconds, load } = await measure(() => phase.run(stack, flags));
      if (result.exitCode !== 0) throw new Error(`${phase.name} of ${program} exited ${result.exitCode}:\n${result.lines.join("\n")}`);
      const after = await emulatorStats(emulator);
      figures.push({
        requests: after.requests - before.requests,
        rejected: (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0),
        byType: requestsByType(before, after),
        seconds,
        hostPeakRss: peakMiB(processes, "provider host"),
        load,
      });
    }
  } finally {
    stack.remove();
  }
  return figures;
}

const percent = (part: number, whole: number) => (whole === 0 ? "0%" : `${((100 * part) / whole).toFixed(1)}%`);
const ratio = (docs: number, crm: number) => (crm === 0 ? (docs === 0 ? "=" : "∞") : `${(docs / crm).toFixed(1)}×`);
const mib = (value?: number) => (value === undefined ? "not measured" : value.toFixed(0));

function table(accounts: number, parallel: number, crm: Figures[], docs: Figures[]): string {
  const header = "| N | phase | requests crm / docs (×) | 429s crm / docs | wall s crm / docs (×) | host peak RSS MiB crm / docs | load at start crm / docs |";
  const rows = phases.map((phase, index) => {
    const [c, d] = [crm[index], docs[index]];
    return `| ${accounts} | ${phase.name} | ${c.requests} / ${d.requests} (${ratio(d.requests, c.requests)}) | ${c.rejected} (${percent(c.rejected, c.requests)}) / ${d.rejected} | ${c.seconds.toFixed(1)} / ${d.seconds.toFixed(1)} (${ratio(d.seconds, c.seconds)}) | ${mib(c.hostPeakRss)} / ${mib(d.hostPeakRss)} | ${c.load} / ${d.load} |`;
  });
  return [`N = ${accounts}, P = ${parallel}`, "", header, "|---|---|---|---|---|---|---|", ...rows].join("\n");
}

/**
 * The goal for `up` of N accounts: within 1.10 × (N / 5 s + the program's start), where
 * the start is measured as the wall time of an `up` of the same program declaring no
 * account (the CLI, its two program runs, the provider hosts, no request).
 */
function upGoal(accounts: number, crmUp: Figures, emptyUpSeconds: number): string {
  const goal = 1.1 * (accounts / 5 + emptyUpSeconds);
  const verdict = crmUp.seconds <= goal ? "met" : "missed";
  return `up goal: ${crmUp.seconds.toFixed(1)} s ≤ 1.10 × (${accounts} / 5 s + ${emptyUpSeconds.toFixed(1)} s start) = ${goal.toFixed(1)} s: ${verdict}; 429s ${crmUp.rejected} of ${crmUp.requests} requests (${percent(crmUp.rejected, crmUp.requests)}, goal under 2%)`;
}

/** The objects of bench/mixed per type for `accounts` accounts. */
const mixedObjects = (accounts: number): Record<string, number> => ({
  "crm.Account": accounts,
  "crm.AccountCustomField": 3,
  "crm.AccountCustomFieldValue": 3 * accounts,
  "crm.Address": Math.ceil(accounts / 10),
  "crm.Message": Math.ceil(accounts / 10),
});

function mixedTable(accounts: number, parallel: number, figures: Figures[]): string {
  const objects = mixedObjects(accounts);
  const total = Object.values(objects).reduce((sum, count) => sum + count, 0);
  const header =
    "| phase | requests | 429s | wall s | host peak RSS MiB | load at start | requests by type (of the collection asked: a value's field-type read is crm.AccountCustomField's) |";
  const rows = phases.map((phase, index) => {
    const f = figures[index];
    const byType =
      Object.entries(f.byType)
        .map(([type, count]) => `${type} ${count}`)
        .join(", ") || "none";
    return `| ${phase.name} | ${f.requests} | ${f.rejected} (${percent(f.rejected, f.requests)}) | ${f.seconds.toFixed(1)} | ${mib(f.hostPeakRss)} | ${f.load} | ${byType} |`;
  });
  // Goal: at most 3 requests per type plus one per 100 objects of the type.
  const drift = figures[phases.findIndex((phase) => phase.driftCheck)];
  const goals = Object.entries(objects).map(([type, count]) => {
    const goal = 3 + Math.ceil(count / 100);
    const sent = drift.byType[type] ?? 0;
    return `| ${type} | ${count} | ${sent} | ${goal} | ${sent <= goal ? "met" : "missed"} |`;
  });
  return [
    `mixed stack, pulumi-crm only (bench/docs-style declares accounts only): ${accounts} accounts, ${total} objects, P = ${parallel}`,
    "",
    header,
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "drift check requests per type against the goal (3 per type + 1 per 100 objects):",
    "",
    "| type | objects | requests | goal | |",
    "|---|---|---|---|---|",
    ...goals,
  ].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { accounts: { type: "string", default: "50,200,500" }, mixed: { type: "string", default: "50" }, parallel: { type: "string" } },
  });
  const sizes = values.accounts!.split(",").map(Number).filter(Boolean);
  const mixedSizes = values.mixed!.split(",").map(Number).filter(Boolean);
  const parallel = values.parallel === undefined ? undefined : Number(values.parallel);
  // The CLI's default when none is given: PULUMI_PARALLEL, else 4 per CPU (GOMAXPROCS).
  const effectiveParallel = parallel ?? (Number(process.env.PULUMI_PARALLEL) || 4 * os.cpus().length);
  const crmProgram = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/many-accounts"), "bench-pulumi-crm");
  const docsProgram = installProgram(path.resolve(__dirname, "docs-style"), "bench-docs-style");
  const mixedProgram = installProgram(path.resolve(__dirname, "mixed"), "bench-mixed");
  const emulator = await startEmulatorProcess(5);
  try {
    console.log(`${runsOn(crmProgram)}; emulator rate limit 5 req/s; P = ${effectiveParallel}\n`);
    const [emptyUp] = await runStack(emulator, crmProgram, 0, parallel, phases.slice(0, 1));
    console.log(`program start (up of the accounts program with no account): ${emptyUp.seconds.toFixed(1)} s, ${emptyUp.requests} requests, ${emptyUp.load}\n`);
    for (const accounts of sizes) {
      const crm = await runStack(emulator, crmProgram, accounts, parallel);
      const docs = await runStack(emulator, docsProgram, accounts, parallel);
      console.log(`${table(accounts, effectiveParallel, crm, docs)}\n\n${upGoal(accounts, crm[0], emptyUp.seconds)}\n`);
    }
    for (const accounts of mixedSizes) console.log(`${mixedTable(accounts, effectiveParallel, await runStack(emulator, mixedProgram, accounts, parallel))}\n`);
  } finally {
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
