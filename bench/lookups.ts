// Lookups beside resources, on the real `pulumi` CLI (Node.js 24, the repository's @pulumi/pulumi)
// against the emulator at the real service's limit (5 requests/second per account), with the
// program test/lifecycle/programs/accounts-and-lookups:
// - a failing lookup beside 30 accounts, in preview: exit code, wall time, the program
//   process's peak RSS (the Node.js util.inspect loop of sdk-docs/data-sources.md#errors);
// - up of 20 accounts with 0, 1 and 5 lookups: requests, 429 answers by route, wall time
//   (the lookups run in the program process, the creates in the provider host, one budget).
//
//   npx ts-node --transpile-only bench/lookups.ts
//
// Not part of npm test: it takes a few minutes.

import path from "node:path";
import { emulatorStats } from "../scripts/harness/emulator";
import { installProgram } from "../scripts/harness/packed-program";
import { CliStack, type CliResult } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess } from "./emulator-process";
import { measure, peakMiB, runsOn } from "./processes";

/** Answers by `route status`. */
function answers(after: Awaited<ReturnType<typeof emulatorStats>>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after.byRouteAndStatus).flatMap(([route, byStatus]) => Object.entries(byStatus).map(([status, count]) => [`${route} ${status}`, count])),
  );
}

/**
 * One run on an emulator and a stack of its own, so that each starts from the same account and
 * counts its own answers. Each stack has its own name: the CLI keeps a stack's configuration in
 * the program's folder (Pulumi.<stack>.yaml), where a stack of the same name would find it.
 * `config` without a namespace: the CLI reads it as the project's.
 */
async function run(program: string, name: string, operation: (stack: CliStack) => Promise<CliResult>, config: Record<string, string>) {
  const emulator = await startEmulatorProcess(5);
  const stack = await CliStack.create(program, name, { config: { "crm:apiUrl": emulator.crmUrl, ...config }, secrets: { "crm:apiToken": emulator.apiToken } });
  try {
    const { result, processes, seconds, load } = await measure(() => operation(stack));
    return { exitCode: result.exitCode, seconds, peakMiB: peakMiB(processes, "program"), answers: answers(await emulatorStats(emulator)), load };
  } finally {
    stack.remove();
    emulator.child.kill("SIGTERM");
  }
}

async function main(): Promise<void> {
  const program = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/accounts-and-lookups"), "bench-accounts-and-lookups");
  console.log(`${runsOn(program)}; emulator rate limit 5 req/s\n`);
  const failed = await run(program, "failing-lookup", (stack) => stack.preview(), { count: "30", campaignName: "No such campaign" });
  console.log(
    `failing lookup beside 30 accounts, preview: exit ${failed.exitCode}, ${failed.seconds.toFixed(1)} s, program peak RSS ${failed.peakMiB?.toFixed(0) ?? "?"} MiB (${failed.load})`,
  );
  for (const lookups of [0, 1, 5]) {
    const up = await run(program, `lookups-${lookups}`, (stack) => stack.up(), { count: "20", lookups: String(lookups) });
    const rejected = Object.entries(up.answers).filter(([key]) => key.endsWith(" 429"));
    console.log(
      `up of 20 accounts with ${lookups} lookups (preview + update): exit ${up.exitCode}, ${up.seconds.toFixed(1)} s; ` +
        `${JSON.stringify(up.answers)}; 429s: ${rejected.reduce((sum, [, count]) => sum + count, 0)} (${up.load})`,
    );
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
