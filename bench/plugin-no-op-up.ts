// A no-op `pulumi up` (preview and update, nothing to do, no request) of N accounts through the
// native plugin beside the same accounts through the dynamic crm.Account: one program
// (test/plugin/programs/native-accounts) in either mode, each on a stack of its own, wall time
// and CPU and peak RSS per process (the CLI, the language host, the program runs, the provider
// host or the plugin; bench/processes.ts); then the requests of a drift check (coalesced reads)
// and of a destroy (bulk deletes), which one provider process shares across its resources.
//
//   npx ts-node --transpile-only bench/plugin-no-op-up.ts [--accounts 500]
//
// The accounts are made first with the emulator's and the provider's rate limits off and
// PULUMI_SKIP_CHECKPOINTS=true (the creates are not what is measured). Not part of npm test.

import path from "node:path";
import { parseArgs } from "node:util";
import { requestCount } from "../scripts/harness/emulator";
import { installNativeAccounts, namePluginFolders } from "../scripts/harness/plugin-program";
import { CliStack } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess } from "./emulator-process";
import { byRole, measure, runsOn } from "./processes";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { accounts: { type: "string", default: "500" } } });
  const size = Number(values.accounts);
  const accounts = JSON.stringify(Array.from({ length: size }, (_, n) => ({ name: `Bench account ${n + 1}` })));
  const emulator = await startEmulatorProcess(0);
  try {
    for (const mode of ["dynamic", "native"] as const) {
      const { program, plugin } = await installNativeAccounts(`bench-plugin-no-op-up-${mode}`, { typeCheck: "once" });
      namePluginFolders(program, { crm: plugin.folder });
      const stack = await CliStack.create(program, mode, {
        config: { "crm:apiUrl": emulator.crmUrl, "crm:requestsPerSecond": "0", mode, accounts },
        secrets: { "crm:apiToken": emulator.apiToken },
      });
      try {
        if (mode === "dynamic") console.log(`${runsOn(program)}\n`);
        const made = await measure(() => stack.run(["up", "--yes", "--skip-preview"], { env: { PULUMI_SKIP_CHECKPOINTS: "true" } }));
        if (made.result.exitCode !== 0)
          throw new Error(`making ${size} accounts (${mode}) exited ${made.result.exitCode}:\n${made.result.lines.slice(-20).join("\n")}`);
        console.log(`${mode}: made ${size} accounts (up --skip-preview, limits off, no checkpoints): ${made.seconds.toFixed(1)} s (${made.load})`);
        const before = await requestCount(emulator);
        const { result, processes, seconds, load } = await measure(() => stack.run(["up", "--yes"]));
        const requests = (await requestCount(emulator)) - before;
        if (result.exitCode !== 0 || result.changes)
          throw new Error(`the no-op up (${mode}) exited ${result.exitCode} with ${JSON.stringify(result.steps)}:\n${result.lines.join("\n")}`);
        const through = mode === "native" ? `the plugin ${path.basename(plugin.folder)}` : "the dynamic crm.Account";
        console.log(
          `no-op up of ${size} accounts through ${through}: ${seconds.toFixed(1)} s (${load}), ${result.steps.same} same, ${requests} requests\n\n${byRole(processes, seconds)}\n`,
        );
        // The reads a drift check coalesces into collection pages, and the bulk deletes of a destroy, in one provider process.
        const beforeCheck = await requestCount(emulator);
        const check = await measure(() => stack.driftCheck());
        if (check.result.exitCode !== 0) throw new Error(`the drift check (${mode}) exited ${check.result.exitCode}:\n${check.result.lines.join("\n")}`);
        console.log(
          `drift check (refresh --preview-only --expect-no-changes): ${check.seconds.toFixed(1)} s, ${(await requestCount(emulator)) - beforeCheck} requests`,
        );
        // Destroyed without checkpoints as well, so that the other mode's accounts are made on an empty account.
        const beforeDestroy = await requestCount(emulator);
        const destroyed = await measure(() => stack.run(["destroy", "--yes", "--skip-preview"], { env: { PULUMI_SKIP_CHECKPOINTS: "true" } }));
        if (destroyed.result.exitCode !== 0) throw new Error(`destroy (${mode}) exited ${destroyed.result.exitCode}`);
        console.log(`destroy (no checkpoints): ${destroyed.seconds.toFixed(1)} s, ${(await requestCount(emulator)) - beforeDestroy} requests\n`);
      } finally {
        stack.remove();
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
