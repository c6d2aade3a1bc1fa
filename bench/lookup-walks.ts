// The requests of issue 42's program on the real `pulumi` CLI against the emulator: the
// campaigns listed newest first (`getCampaigns({ orderBySendDate: "DESC" })`), then one looked
// up by name, no resource (test/lifecycle/programs/accounts-and-lookups with newestFirst,
// count 0, 1 lookup). A preview, then an up (its preview and its update), counted by route
// from /__emulator/stats: each run of the program reads the 260 campaigns' 3 pages once
// when its lookups share one walk.
//
//   npx ts-node --transpile-only bench/lookup-walks.ts
//
// Not part of npm test: it installs the packed package.

import path from "node:path";
import { emulatorStats } from "../scripts/harness/emulator";
import { installProgram } from "../scripts/harness/packed-program";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess } from "./emulator-process";
import { runsOn } from "./processes";

async function main(): Promise<void> {
  const program = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/accounts-and-lookups"), "bench-lookup-walks");
  console.log(`${runsOn(program)}; emulator rate limit 5 req/s\n`);
  const emulator = await startEmulatorProcess(5);
  const stack = await CliStack.create(program, "lookup-walks", {
    config: { "crm:apiUrl": emulator.crmUrl, count: "0", lookups: "1", newestFirst: "true" },
    secrets: { "crm:apiToken": emulator.apiToken },
  });
  try {
    let before: Record<string, number> = {};
    for (const [command, operation] of [
      ["preview", () => stack.preview()],
      ["up", () => stack.up()],
    ] as const) {
      const result = await operation();
      const byRoute = (await emulatorStats(emulator)).byRoute;
      const sent = Object.entries(byRoute)
        .map(([route, count]): [string, number] => [route, count - (before[route] ?? 0)])
        .filter(([, count]) => count !== 0);
      const total = sent.reduce((sum, [, count]) => sum + count, 0);
      console.log(`${command}: exit ${result.exitCode}, ${total} requests ${JSON.stringify(Object.fromEntries(sent))}`);
      before = byRoute;
    }
    console.log(`newest campaign: ${(await stack.outputs()).newestCampaign}`);
  } finally {
    stack.remove();
    emulator.child.kill("SIGTERM");
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
