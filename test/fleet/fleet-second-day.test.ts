// A fleet's second day on the real CLI: the YAML program of examples/agency through the
// installed `pulumi-crm fleet`, on one emulator's named accounts. A client moves to another
// account; a client's key changes.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../support/emulator";
import { messagesOf, runFleet, tokenVariable } from "../support/fleet";
import { installedPackageBin, repoRoot } from "../support/packed-program";
import { installYamlProgram } from "../support/plugin-program";

interface ClientEntry {
  stack: string;
  apiUrl: string;
  apiToken: string;
  config: Record<string, string>;
}

describe("pulumi-crm fleet on the real CLI: a fleet's second day", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let home: string;
  let program: string;
  let clientsFile: string;
  let env: NodeJS.ProcessEnv;
  let bin: string;

  const entry = (stack: string, account: string): ClientEntry => ({
    stack,
    apiUrl: emulator.accounts[account].crmUrl,
    apiToken: `env:${tokenVariable(stack)}`,
    config: { clientName: `${stack} Ltd`, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
  });
  const writeClients = (clients: ClientEntry[]) => writeFileSync(clientsFile, JSON.stringify({ program, clients }, null, 2));
  const fleet = (...args: string[]) => runFleet(bin, clientsFile, env, args);

  before(async () => {
    emulator = await startEmulator({ accounts: ["mover-old", "mover-new", "rekey"].map((name) => ({ name })) });
    ({ program } = await installYamlProgram(join(repoRoot, "examples", "agency", "yaml"), "fleet-second-day"));
    bin = installedPackageBin("pulumi-crm");
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-day2-"));
    mkdirSync(join(home, "backend"));
    clientsFile = join(home, "clients.json");
    env = {
      ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      [tokenVariable("mover")]: emulator.accounts["mover-old"].apiToken,
      [tokenVariable("rekey")]: emulator.accounts.rekey.apiToken,
    };
    writeClients([entry("mover", "mover-old"), entry("rekey", "rekey")]);
    const up = await fleet("up", "--parallel", "2");
    assert.equal(up.code, 0, up.stdout + up.stderr);
  });
  after(async () => {
    await emulator?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("a client moved to another account has its resources replaced into it, and the old account emptied", async () => {
    writeClients([entry("mover", "mover-new"), entry("rekey", "rekey")]);
    env[tokenVariable("mover")] = emulator.accounts["mover-new"].apiToken;
    const up = await fleet("up", "--only", "mover");
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.match(up.stdout, /^mover +changed +\d+\.\d s +changed 4 resources$/m, up.stdout);
    assert.deepEqual((await messagesOf(emulator.accounts["mover-new"])).map((message) => message.fromname), ["mover Ltd"]);
    assert.deepEqual(await messagesOf(emulator.accounts["mover-old"]), []);
    const drift = await fleet("drift", "--only", "mover");
    assert.equal(drift.code, 0, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /^mover +no change +\d+\.\d s +no drift$/m, drift.stdout);
  });

  it("a changed key is the same account's: a wrong one and then the right one, the drift check reads with the stack's current key", async () => {
    env[tokenVariable("rekey")] = "not-the-key";
    const wrong = await fleet("up", "--only", "rekey");
    assert.equal(wrong.code, 0, wrong.stdout + wrong.stderr);
    env[tokenVariable("rekey")] = emulator.accounts.rekey.apiToken;
    const sync = await fleet("sync", "--only", "rekey");
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const drift = await fleet("drift", "--only", "rekey");
    assert.equal(drift.code, 0, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /^rekey +no change +\d+\.\d s +no drift$/m, drift.stdout);
  });
});
