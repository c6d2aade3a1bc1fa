// Where the first `pulumi up` of N accounts spends its time on the real CLI, each size on a new
// stack, with the emulator's and the provider's rate limits off (at the service's 5 requests a
// second, 1,000 accounts spend 200 s on requests anyway; that is not what is measured): wall time,
// CPU, peak RSS and bytes written per process, and the size of the state file it leaves. With
// --skip-checkpoints, each size again with PULUMI_SKIP_CHECKPOINTS=true, under which the CLI
// writes the state once, at the end, instead of at every step's start and end.
//
//   npx ts-node --transpile-only bench/first-up.ts [--accounts 250,500,1000] [--skip-checkpoints]
//
// Not part of npm test: minutes per size.

import path from "node:path";
import { parseArgs } from "node:util";
import { requestCount } from "../scripts/harness/emulator";
import { installProgram } from "../scripts/harness/packed-program";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess } from "./emulator-process";
import { byRole, measure, runsOn } from "./processes";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { accounts: { type: "string", default: "250,500,1000" }, "skip-checkpoints": { type: "boolean", default: false } } });
  const sizes = values.accounts!.split(",").map(Number).filter(Boolean);
  const variants = values["skip-checkpoints"] ? [false, true] : [false];
  const program = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/many-accounts"), "bench-first-up");
  const emulator = await startEmulatorProcess(0);
  console.log(`${runsOn(program)}\n`);
  try {
    for (const size of sizes) {
      for (const skipCheckpoints of variants) {
        const stack = await CliStack.create(program, `first-up-${size}${skipCheckpoints ? "-skip" : ""}`, {
          config: { "crm:apiUrl": emulator.crmUrl, "crm:requestsPerSecond": "0", count: String(size) },
          secrets: { "crm:apiToken": emulator.apiToken },
        });
        try {
          const before = await requestCount(emulator);
          const env = skipCheckpoints ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
          const { result, processes, seconds, load } = await measure(() => stack.run(["up", "--yes", "--skip-preview"], { env }));
          if (result.exitCode !== 0) throw new Error(`the up of ${size} accounts exited ${result.exitCode}:\n${result.lines.join("\n")}`);
          const requests = (await requestCount(emulator)) - before;
          const state = Buffer.byteLength(stack.stateText()) / 2 ** 20;
          const how = skipCheckpoints ? "PULUMI_SKIP_CHECKPOINTS=true" : "checkpoints as by default";
          console.log(
            `first up of ${size} accounts, ${how}: ${seconds.toFixed(1)} s (${load}), ${result.steps.create} created, ${requests} requests, state file ${state.toFixed(2)} MiB\n\n${byRole(processes, seconds)}\n`,
          );
          // Destroyed, so that the next size starts from an empty account.
          await stack.destroy();
        } finally {
          stack.remove();
        }
      }
    }
  } finally {
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
