// A fleet whose stacks' secrets a key service keeps (the clients file's secretsProvider), on the
// real CLI with moto's AWS KMS on loopback (scripts/kms.ts): the fleet makes each stack with it,
// and deploys, redeploys and checks them with no passphrase anywhere; a stack kept by another
// provider is named, with the command that moves it.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { type RunningKms, startKms } from "../../scripts/kms";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { installedPackageBin } from "../../scripts/harness/packed-program";
import { installTagProgram, runFleet, tokenVariable } from "../support/fleet";

const execFileAsync = promisify(execFile);
const clients = ["north", "south"];

describe("pulumi-crm fleet on the real CLI: the stacks' secrets kept by a key service (awskms://)", function () {
  this.timeout(10 * 60_000);
  let kms: RunningKms;
  let emulator: RunningEmulator;
  let home: string;
  let program: string;
  let bin: string;
  /** The fleet's environment: the key service's keys, and no passphrase. */
  let env: NodeJS.ProcessEnv;
  const clientsFile = (stacks: string[]) => {
    const path = join(home, `clients-${stacks.join("-")}.json`);
    const entries = stacks.map((stack) => ({
      stack,
      apiUrl: emulator.accounts[stack].crmUrl,
      apiToken: `env:${tokenVariable(stack)}`,
      config: { clientName: stack },
    }));
    writeFileSync(path, JSON.stringify({ program, secretsProvider: kms.url, clients: entries }));
    return path;
  };
  const pulumi = async (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    (await execFileAsync("pulumi", [...args, "--non-interactive"], { cwd: program, env: { ...env, ...extra }, encoding: "utf8" })).stdout;

  before(async () => {
    kms = await startKms();
    emulator = await startEmulator({ accounts: [...clients, "west"].map((name) => ({ name })) });
    program = await installTagProgram("fleet-secrets-provider");
    bin = installedPackageBin("pulumi-crm");
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-kms-"));
    mkdirSync(join(home, "backend"));
    const { PULUMI_CONFIG_PASSPHRASE: _none, PULUMI_CONFIG_PASSPHRASE_FILE: _noFile, ...cli } = offlineCliEnvironment(home, toolchainPath(ensureToolchain()));
    env = {
      ...cli,
      ...kms.env,
      PULUMI_BACKEND_URL: `file://${join(home, "backend")}`,
      ...Object.fromEntries([...clients, "west"].map((stack) => [tokenVariable(stack), emulator.accounts[stack].apiToken])),
    };
  });
  after(async () => {
    await emulator?.close();
    await kms?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("makes each stack with the key service, and deploys, redeploys and checks it with no passphrase set", async () => {
    const file = clientsFile(clients);
    const up = await runFleet(bin, file, env, ["up"]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    for (const stack of clients) {
      assert.match(up.stdout, new RegExp(`^${stack} +changed `, "m"), up.stdout);
      const settings = readFileSync(join(program, `Pulumi.${stack}.yaml`), "utf8");
      assert.ok(settings.includes(`secretsprovider: ${kms.url}`), settings);
      assert.match(settings, /^encryptedkey: /m);
      assert.doesNotMatch(settings, /encryptionsalt/);
      // The key a secret of the stack, encrypted with the key service's data key.
      assert.ok(!settings.includes(emulator.accounts[stack].apiToken), "the stack's settings hold its key in the clear");
      const state = JSON.parse(await pulumi(["stack", "export", "--stack", stack])) as { deployment: { secrets_providers: { type: string } } };
      assert.equal(state.deployment.secrets_providers.type, "cloud");
    }
    const again = await runFleet(bin, file, env, ["up"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    for (const stack of clients) assert.match(again.stdout, new RegExp(`^${stack} +no change `, "m"), again.stdout);
    const drift = await runFleet(bin, file, env, ["drift"]);
    assert.equal(drift.code, 0, drift.stdout + drift.stderr);
    for (const stack of clients) assert.match(drift.stdout, new RegExp(`^${stack} +no change `, "m"), drift.stdout);
    assert.doesNotMatch(`${up.stderr}${again.stderr}${drift.stderr}`, /another provider/);
  });

  it("names a stack whose secrets another provider keeps, with the command that moves them; once moved, names it no more", async () => {
    // A client whose stack was made before the file named the key service: on the passphrase.
    const passphrase = { PULUMI_CONFIG_PASSPHRASE: "the-old-passphrase" };
    await pulumi(["stack", "init", "west", "--no-select"], passphrase);
    const file = clientsFile([...clients, "west"]);
    const sync = await runFleet(bin, file, { ...env, ...passphrase }, ["sync"]);
    assert.equal(sync.code, 0, sync.stdout + sync.stderr);
    const warnings = sync.stderr.split("\n").filter((line) => /another provider/.test(line));
    assert.deepEqual(warnings, [
      `pulumi-crm fleet sync: warning: west (passphrase) keeps its secrets with another provider than the file's secretsProvider; \`pulumi stack change-secrets-provider --stack <stack> '${kms.url}'\` moves a stack's secrets to it`,
    ]);
    await pulumi(["stack", "change-secrets-provider", "--stack", "west", kms.url], passphrase);
    const moved = await runFleet(bin, file, env, ["up"]);
    assert.equal(moved.code, 0, moved.stdout + moved.stderr);
    assert.match(moved.stdout, /^west +changed /m, moved.stdout);
    assert.doesNotMatch(moved.stderr, /another provider/);
  });
});
