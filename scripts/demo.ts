// `npm run demo`: starts the local emulator, deploys examples/quickstart with the
// real pulumi CLI when it is on PATH (else with the bundled test engine), then runs
// a drift check, saying at each step what it did.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { runEngine } from "../test/engine/engine";
import { requestCount } from "../test/support/emulator";
import { installExample, repoRoot } from "../test/support/packed-program";

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const stack = "dev";

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    say(`Started the local emulator: CRM service at ${emulator.crmUrl}, chat service at ${emulator.chatUrl}, 5 requests/second like the real service.`);
    say("Packing pulumi-crm and installing the tarball into a copy of examples/quickstart, as users install it...");
    const program = installExample("quickstart", "demo");
    say(`Program ready in ${program}.`);
    const cli = spawnSync("pulumi", ["version"], { encoding: "utf8" });
    if (cli.status === 0) await deployWithCli(program, emulator, cli.stdout.trim());
    else await deployWithEngine(program, emulator);
  } finally {
    await emulator.close();
  }
}

async function deployWithEngine(program: string, emulator: Emulator): Promise<void> {
  say("The pulumi CLI is not on PATH: using the bundled test engine (test/engine), which runs the program with the real Pulumi Node SDK and dynamic provider host.");
  const stateFile = join(repoRoot, ".work", "demo-state.json");
  rmSync(stateFile, { force: true });
  const base = {
    cwd: program,
    stack,
    stateFile,
    config: { "crm:apiUrl": emulator.crmUrl },
    secrets: { "crm:apiToken": emulator.apiToken },
  };
  const step = async (title: string, command: "up" | "refresh", expectNoChanges = false) => {
    say(title);
    const before = await requestCount(emulator);
    const result = await runEngine({ ...base, command, expectNoChanges, previewOnly: expectNoChanges });
    for (const line of result.lines) console.log(`    ${line}`);
    const sent = (await requestCount(emulator)) - before;
    say(`  -> exit ${result.exitCode}, ${JSON.stringify(result.steps)}, ${sent} requests to the service.`);
    if (result.exitCode !== 0) throw new Error(`${command} failed with exit code ${result.exitCode}`);
  };
  await step("pulumi up: creating the quickstart accounts...", "up");
  await step("pulumi up again: nothing changed, so nothing should be sent...", "up");
  await step("Drift check (pulumi refresh --preview-only --expect-no-changes)...", "refresh", true);
  say(`Done. The state is in ${stateFile}. The emulator stops with the demo; to keep one running for your own stacks, run \`npm run emulator -- --port 4000\` and point crm:apiUrl and crm:apiToken at what it prints.`);
}

async function deployWithCli(program: string, emulator: Emulator, version: string): Promise<void> {
  say(`Using the pulumi CLI on PATH (${version}), with a local file backend under .work/demo-backend.`);
  const backend = join(repoRoot, ".work", "demo-backend");
  rmSync(backend, { recursive: true, force: true });
  mkdirSync(backend, { recursive: true });
  const env = { ...process.env, PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "demo" };
  // Asynchronously: the emulator answers the CLI's provider from this process's event loop,
  // which a synchronous child process would block.
  const pulumi = async (...args: string[]) => {
    say(`$ pulumi ${args.join(" ").replace(emulator.apiToken, "[secret]")}`);
    const child = spawn("pulumi", args, { cwd: program, env, stdio: "inherit" });
    const code = await new Promise<number | null>((resolve, reject) => child.on("error", reject).on("close", resolve));
    if (code !== 0) throw new Error(`pulumi ${args[0]} exited with ${code}`);
  };
  await pulumi("stack", "init", stack);
  await pulumi("config", "set", "crm:apiUrl", emulator.crmUrl);
  await pulumi("config", "set", "--secret", "crm:apiToken", emulator.apiToken);
  await pulumi("up", "--yes", "--skip-preview");
  await pulumi("refresh", "--preview-only", "--expect-no-changes");
  say("Done: deployed and checked for drift with the pulumi CLI.");
}

function say(text: string): void {
  console.log(`[demo] ${text}`);
}

main().catch((error) => {
  console.error(`[demo] failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
