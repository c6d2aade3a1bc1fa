// `npm run demo`: starts the local emulator, deploys examples/quickstart with the
// real pulumi CLI when it is on PATH (else with the bundled test engine), runs a drift
// check, renames an account behind Pulumi's back, catches that drift (exit code 7),
// repairs it with `up --refresh` and checks again, saying at each step what it did.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { CHANGES_NOT_EXPECTED, EngineOptions, runEngine } from "../engine/engine";
import { driftCheck, emulatorCallWhenAdmitted, emulatorRead, requestCount } from "../test/support/emulator";
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
  say("The pulumi CLI is not on PATH: using the bundled test engine (engine/), which runs the program with the real Pulumi Node SDK and dynamic provider host.");
  const stateFile = join(repoRoot, ".work", "demo-state.json");
  rmSync(stateFile, { force: true });
  const base = {
    cwd: program,
    stack,
    stateFile,
    config: { "crm:apiUrl": emulator.crmUrl },
    secrets: { "crm:apiToken": emulator.apiToken },
  };
  const step = async (title: string, options: Pick<EngineOptions, "command"> & Partial<EngineOptions>, expectedExitCode = 0) => {
    say(title);
    const before = await requestCount(emulator);
    const result = await runEngine({ ...base, ...options });
    for (const line of result.lines) console.log(`    ${line}`);
    const sent = (await requestCount(emulator)) - before;
    say(`  -> exit ${result.exitCode}, ${JSON.stringify(result.steps)}, ${sent} requests to the service.`);
    if (result.exitCode !== expectedExitCode) throw new Error(`${options.command} exited with ${result.exitCode}, not ${expectedExitCode}`);
  };
  const check = { command: "refresh", ...driftCheck, diff: true } as const;
  await step("pulumi up: creating the quickstart accounts...", { command: "up" });
  await step("pulumi up again: nothing changed, so nothing should be sent...", { command: "up" });
  await step("Drift check (pulumi refresh --preview-only --expect-no-changes --diff)...", check);
  await renameAnAccount(emulator);
  await step("Drift check again: it should catch the rename (exit 7) and show the field...", check, CHANGES_NOT_EXPECTED);
  await step("Repair (pulumi up --refresh): read the service, then put the program's values back...", { command: "up", refresh: true });
  await step("Drift check after the repair...", check);
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
  const check = ["refresh", "--preview-only", "--expect-no-changes", "--diff"];
  await pulumi("up", "--yes", "--skip-preview");
  await pulumi(...check);
  await renameAnAccount(emulator);
  await pulumi(...check).then(
    () => Promise.reject(new Error("the drift check missed the rename")),
    (error: Error) => say(`  -> ${error.message}: drift caught (exit code 7 on CLI 3.227 and later).`),
  );
  await pulumi("up", "--refresh", "--yes", "--skip-preview");
  await pulumi(...check);
  say("Done: deployed, drift caught and repaired with the pulumi CLI.");
}

/** Drift for the demo to catch: the first account renamed in the service, as someone might in its web app. */
async function renameAnAccount(emulator: Emulator): Promise<void> {
  const [account] = (await emulatorRead(emulator, "/accounts?limit=1")).accounts as Array<{ id: string; name: string }>;
  const renamed = `${account.name} (renamed in the app)`;
  await emulatorCallWhenAdmitted(emulator, "PUT", `/api/3/accounts/${account.id}`, { account: { name: renamed } });
  say(`Renamed account ${account.id} behind Pulumi's back: "${account.name}" => "${renamed}".`);
}

function say(text: string): void {
  console.log(`[demo] ${text}`);
}

main().catch((error) => {
  console.error(`[demo] failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
