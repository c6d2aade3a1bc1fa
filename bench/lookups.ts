// Lookups beside resources, through the test engine against the emulator at the real
// service's limit (5 requests/second per account), with the program test/lifecycle/programs/
// accounts-and-lookups:
// - a failing lookup beside 30 accounts, in preview: exit code, wall time, the program
//   process's peak RSS (the Node.js util.inspect loop of sdk-docs/data-sources.md#errors);
// - up of 20 accounts with 0, 1 and 5 lookups: requests, 429 answers by route, wall time
//   (the lookups run in the program process, the creates in the provider host, one budget).
//
//   npx ts-node --transpile-only bench/lookups.ts
//
// Not part of npm test: it takes a few minutes.

import { rmSync } from "node:fs";
import path from "node:path";
import { runEngine, type Command } from "../engine/engine";
import { installProgram } from "../test/support/packed-program";
import { startEmulatorProcess, type RunningEmulatorProcess } from "./emulator-process";
import { withPeakRss } from "./peak-rss";

interface Stats {
  byRouteAndStatus: Record<string, Record<string, number>>;
}

async function stats(emulator: RunningEmulatorProcess): Promise<Stats> {
  return (await (await fetch(`${emulator.crmUrl}/__emulator/stats`)).json()) as Stats;
}

/** Answers by `route status`. */
function answers(after: Stats): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after.byRouteAndStatus).flatMap(([route, byStatus]) => Object.entries(byStatus).map(([status, count]) => [`${route} ${status}`, count])),
  );
}

/** One run on an emulator of its own, so that each starts from the same account and counts its own answers. */
async function run(program: string, command: Command, config: Record<string, string>) {
  const emulator = await startEmulatorProcess(5);
  try {
    return await runOn(emulator, program, command, config);
  } finally {
    emulator.child.kill("SIGTERM");
  }
}

async function runOn(emulator: RunningEmulatorProcess, program: string, command: Command, config: Record<string, string>) {
  const stateFile = path.join(program, "state.json");
  rmSync(stateFile, { force: true });
  const started = Date.now();
  const { result, peakMiB } = await withPeakRss("cmd/run", () =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      config: { "crm:apiUrl": emulator.crmUrl, ...Object.fromEntries(Object.entries(config).map(([key, value]) => [`accounts-and-lookups:${key}`, value])) },
      secrets: { "crm:apiToken": emulator.apiToken },
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  return { exitCode: result.exitCode, seconds, peakMiB, answers: answers(await stats(emulator)) };
}

async function main(): Promise<void> {
  const program = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/accounts-and-lookups"), "bench-accounts-and-lookups");
  console.log(`node ${process.version}; emulator rate limit 5 req/s\n`);
  const failed = await run(program, "preview", { count: "30", campaignName: "No such campaign" });
  console.log(
    `failing lookup beside 30 accounts, preview: exit ${failed.exitCode}, ${failed.seconds.toFixed(1)} s, program peak RSS ${failed.peakMiB?.toFixed(0) ?? "?"} MiB`,
  );
  for (const lookups of [0, 1, 5]) {
    const up = await run(program, "up", { count: "20", lookups: String(lookups) });
    const rejected = Object.entries(up.answers).filter(([key]) => key.endsWith(" 429"));
    console.log(
      `up of 20 accounts with ${lookups} lookups (preview + update): exit ${up.exitCode}, ${up.seconds.toFixed(1)} s; ` +
        `${JSON.stringify(up.answers)}; 429s: ${rejected.reduce((sum, [, count]) => sum + count, 0)}`,
    );
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
