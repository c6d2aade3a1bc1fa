// `npm run demo`: starts the local emulator, deploys examples/quickstart with the real `pulumi`
// CLI (the one on PATH, else the one scripts/toolchain.ts builds here, building it first if it
// is missing), runs a drift check, renames an account behind Pulumi's back, catches that drift
// (exit code 7), repairs it with `pulumi up --refresh` and checks again, saying at each step
// what it ran and what came of it.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator";
import { emulatorCallWhenAdmitted, emulatorRead } from "./harness/emulator";
import { installExample, repoRoot } from "./harness/packed-program";
import { ensureToolchain, offlineCliEnvironment, programNodeVersion, toolchainPath } from "./toolchain";

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** What `pulumi refresh --preview-only --expect-no-changes` exits with on drift. */
const DRIFT = 7;

async function main(): Promise<void> {
  const emulator = await startEmulator({ port: 0 });
  try {
    say(`Started the local emulator: CRM service at ${emulator.crmUrl}, chat service at ${emulator.chatUrl}, 5 requests/second like the real service.`);
    const path = cliPath();
    say("Packing pulumi-crm and installing the tarball into a copy of examples/quickstart, as users install it...");
    const program = installExample("quickstart", "demo");
    say(`Program ready in ${program}.`);
    await deploy(program, emulator, path);
  } finally {
    await emulator.close();
  }
}

/** PATH for the demo's commands: the user's, if it has `pulumi`; else the CLI and Node.js built here first. */
function cliPath(): string {
  const onPath = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  if (onPath.status === 0) {
    say(`Using the pulumi CLI on PATH (${onPath.stdout.trim()}).`);
    return process.env.PATH ?? "";
  }
  say(
    `No pulumi CLI on PATH: using the one this repository builds from Pulumi's Go modules (scripts/toolchain.ts), with Node.js ${programNodeVersion}; the first time, it is built now.`,
  );
  const toolchain = ensureToolchain();
  say(`Using pulumi ${toolchain.cliVersion} from ${toolchain.cliBin}.`);
  return toolchainPath(toolchain);
}

async function deploy(program: string, emulator: Emulator, path: string): Promise<void> {
  const home = join(repoRoot, ".work", "demo-home");
  rmSync(home, { recursive: true, force: true });
  mkdirSync(join(home, "backend"), { recursive: true });
  say(`A local file backend in ${home}/backend, secrets encrypted with a passphrase, offline.`);
  const env = offlineCliEnvironment(home, path);
  // Asynchronously: the emulator answers the CLI's provider from this process's event loop,
  // which a synchronous child process would block.
  const pulumi = async (args: string[], expectedExitCode = 0): Promise<void> => {
    say(`$ pulumi ${args.join(" ").replace(emulator.apiToken, "<token>")}`);
    const child = spawn("pulumi", [...args, "--non-interactive"], { cwd: program, env, stdio: "inherit" });
    const code = await new Promise<number | null>((resolve, reject) => child.on("error", reject).on("close", resolve));
    if (code !== expectedExitCode) throw new Error(`pulumi ${args[0]} exited with ${code}, not ${expectedExitCode}`);
    say(`  -> exit code ${code}`);
  };
  const check = ["refresh", "--preview-only", "--expect-no-changes", "--diff"];
  await pulumi(["stack", "init", "dev"]);
  await pulumi(["config", "set-all", "--plaintext", `crm:apiUrl=${emulator.crmUrl}`, "--secret", `crm:apiToken=${emulator.apiToken}`]);
  await pulumi(["up", "--yes"]);
  say("Drift check on the untouched stack: nothing to report.");
  await pulumi(check);
  await renameAnAccount(emulator);
  say("Drift check again: it catches the rename, shows the field and both values, and exits 7.");
  await pulumi(check, DRIFT);
  say("Repair: read the service, then put the program's values back.");
  await pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
  await pulumi(check);
  say("Done: deployed, drift caught and repaired with the pulumi CLI.");
  say(
    `The stack stays in ${home}; the emulator stops with the demo. To keep one running for your own stacks, run \`npm run emulator -- --port 4000\` and point crm:apiUrl and crm:apiToken at what it prints.`,
  );
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
