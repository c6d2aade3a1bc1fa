// The quickstart's lifecycle with the real `pulumi` CLI, where it is installed: a local
// file backend in a temporary directory, the packed package installed into the program,
// the emulator as the service. Skipped, and said so, where `pulumi` is not on PATH (the
// test engine's lifecycle tests stand in for it there).

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { emulatorCall, requestCount, RunningEmulator } from "../support/emulator";

/** `pulumi version`, or undefined when there is no CLI on PATH. */
function cliVersion(): string | undefined {
  const run = spawnSync("pulumi", ["version"], { encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

describe("quickstart lifecycle with the real pulumi CLI", function () {
  this.timeout(600_000);
  let version: string | undefined;
  let emulator: RunningEmulator;
  let program: string;
  let home: string;

  before(async function () {
    version = cliVersion();
    if (!version) {
      console.log("      SKIPPED: the pulumi CLI is not on PATH, so the real-CLI lifecycle did not run (the test engine's lifecycle tests did).");
      this.skip();
    }
    console.log(`      pulumi CLI ${version}`);
    emulator = await startEmulator({ port: 0 });
    program = installExample("quickstart", "real-cli-quickstart");
    // HOME too, so that `pulumi login --local` (file://~) and the CLI's own files stay in it.
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-cli-"));
  });
  after(async () => {
    await emulator?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  /** Runs the CLI in the program (asynchronously: the emulator answers from this process). */
  const pulumi = async (...args: string[]): Promise<{ code: number | null; output: string }> => {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      cwd: program,
      env: {
        ...process.env,
        HOME: home,
        PULUMI_HOME: join(home, ".pulumi"),
        PULUMI_BACKEND_URL: `file://${home}`,
        PULUMI_CONFIG_PASSPHRASE: "real-cli-test",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    return { code, output: output.split(emulator.apiToken).join("[secret]") };
  };
  const ok = async (...args: string[]) => {
    const run = await pulumi(...args);
    assert.equal(run.code, 0, `pulumi ${args.join(" ")}:\n${run.output}`);
    return run.output;
  };
  const accounts = async () => (await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ id: string; name: string }>;
  /** The CLI exits 7 for --expect-no-changes with changes since 3.227; before, with 255. */
  const exitsSeven = () => {
    const [major, minor] = (version ?? "").replace(/^v/, "").split(".").map(Number);
    return major > 3 || (major === 3 && minor >= 227);
  };

  it("logs in to a local backend, creates the stack and sets its configuration", async () => {
    await ok("login", "--local");
    await ok("stack", "init", "dev");
    await ok("config", "set", "crm:apiUrl", emulator.crmUrl, "--stack", "dev");
    await ok("config", "set", "--secret", "crm:apiToken", emulator.apiToken, "--stack", "dev");
  });

  it("up creates the accounts; a second up sends no request", async () => {
    await ok("up", "--yes", "--skip-preview", "--stack", "dev");
    assert.deepEqual((await accounts()).map((a) => a.name).sort(), ["Acme Inc", "Globex Corporation"]);
    const before = await requestCount(emulator);
    const again = await ok("up", "--yes", "--stack", "dev");
    assert.match(again, /3 unchanged/);
    assert.equal((await requestCount(emulator)) - before, 0);
  });

  it("refresh --preview-only --expect-no-changes passes, then fails on an account renamed out of band", async () => {
    await ok("refresh", "--preview-only", "--expect-no-changes", "--stack", "dev");
    const acme = (await accounts()).find((a) => a.name === "Acme Inc")!;
    await emulatorCall(emulator, "PUT", `/api/3/accounts/${acme.id}`, { account: { name: "Acme Renamed" } });
    const drift = await pulumi("refresh", "--preview-only", "--expect-no-changes", "--stack", "dev");
    if (exitsSeven()) assert.equal(drift.code, 7, drift.output);
    else assert.notEqual(drift.code, 0, drift.output);
    // The preview wrote nothing: the account is still renamed, and the state still holds the old name.
    assert.ok((await accounts()).some((a) => a.name === "Acme Renamed"));
  });

  it("destroy deletes every account", async () => {
    await ok("destroy", "--yes", "--skip-preview", "--stack", "dev");
    assert.deepEqual(await accounts(), []);
  });
});
