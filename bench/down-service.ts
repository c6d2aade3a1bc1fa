// A drift check against a service that is down (issue 36, point 2): N accounts deployed on the
// real `pulumi` CLI against the emulator at the real service's limit (5 requests per second per
// account), the emulator stopped, then `pulumi refresh --preview-only --expect-no-changes`. Prints
// its exit code, wall time, output lines, the lines that carry the refused connection, and the
// resources the CLI reported an error on.
//
//   npx ts-node --transpile-only bench/down-service.ts [--accounts 130] [--output FILE]
//
// 130 accounts are 132 resources with the stack and its default provider. --output keeps the
// drift check's whole output, to see where each line comes from. Not part of npm test.

import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { installProgram } from "../scripts/harness/packed-program";
import { CliStack, resourceErrors } from "../scripts/harness/pulumi-cli";
import { startEmulatorProcess } from "./emulator-process";
import { measure, runsOn } from "./processes";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { accounts: { type: "string", default: "130" }, output: { type: "string" } } });
  const accounts = Number(values.accounts);
  const program = installProgram(path.resolve(__dirname, "../test/lifecycle/programs/many-accounts"), "bench-pulumi-crm");
  const emulator = await startEmulatorProcess(5);
  const stack = await CliStack.create(program, `down-${accounts}`, {
    config: { "crm:apiUrl": emulator.crmUrl, count: String(accounts) },
    secrets: { "crm:apiToken": emulator.apiToken },
  });
  try {
    await stack.deploy();
    const stopped = new Promise((resolve) => emulator.child.once("exit", resolve));
    emulator.child.kill("SIGTERM");
    await stopped;
    const { result, seconds, load } = await measure(() => stack.driftCheck());
    if (values.output) writeFileSync(values.output, `${result.stdout}\n--- stderr ---\n${result.stderr}`);
    const refused = result.lines.filter((line) => line.includes("ECONNREFUSED")).length;
    const failed = new Set(resourceErrors(result).map((error) => error.urn)).size;
    console.log(`${runsOn(program)}; emulator stopped after the up of ${accounts} accounts (${accounts + 2} resources)\n`);
    console.log("| resources | exit code | wall s | output lines | lines with ECONNREFUSED | resources with an error | load at start |");
    console.log("|---|---|---|---|---|---|---|");
    console.log(`| ${accounts + 2} | ${result.exitCode} | ${seconds.toFixed(1)} | ${result.lines.length} | ${refused} | ${failed} | ${load} |`);
  } finally {
    if (emulator.child.exitCode === null) emulator.child.kill("SIGTERM");
    stack.remove();
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exitCode = 1;
});
