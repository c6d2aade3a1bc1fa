// The fleet's YAML program on the plugin its Pulumi.yaml names (version and pluginDownloadURL),
// installed into the CLI's plugin cache as the CLI installs a release, on the real CLI: not a
// `pulumi-resource-crm` that happens to be on PATH, as the npm package's bin is when the fleet
// runs through `npx pulumi-crm fleet`. Installed so, the CLI keeps the plugin's schema, and the
// fleet starts that plugin once for all its clients' deployments (shared-plugin.ts).

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startEmulator } from "../../emulator";
import { buildPlugins } from "../../scripts/plugin-bundle";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { groupAliveAfter, messagesOf, runFleet, tokenVariable } from "../support/fleet";
import { installedPackageBin, repoRoot } from "../../scripts/harness/packed-program";
import { copyYamlProgram, installPluginTarball } from "../../scripts/harness/plugin-program";

describe("pulumi-crm fleet on the real CLI: the plugin the YAML program names, not one on PATH", function () {
  this.timeout(10 * 60_000);
  const clients = ["acme", "globex", "initech"];
  let emulator: RunningEmulator;
  let home: string;
  let env: NodeJS.ProcessEnv;
  /** examples/agency/yaml as it is: its resources name version 0.1.0 and the release's pluginDownloadURL. */
  let program: string;
  /** The installed plugin's starts, each logged by a wrapper in its place. */
  let starts: string;
  /** Where a `pulumi-resource-crm` first on PATH, as `npx` puts the npm package's bin, says it ran (and fails). */
  let ran: string;
  const bin = () => installedPackageBin("pulumi-crm");
  /** A clients file of `names`, each client its own account of the emulator. */
  const clientsFile = (names: string[]) => {
    const file = join(home, `clients-${names.length}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        program,
        clients: names.map((stack) => ({
          stack,
          apiUrl: emulator.accounts[stack].crmUrl,
          apiToken: `env:${tokenVariable(stack)}`,
          config: { clientName: stack, senderEmail: `news@${stack}.example`, street: "1 Main Street", city: "Chicago", country: "US" },
        })),
      }),
    );
    return file;
  };

  before(async () => {
    emulator = await startEmulator({ accounts: clients.map((name) => ({ name })) });
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-release-"));
    program = copyYamlProgram(join(repoRoot, "examples", "agency", "yaml"), "fleet-release-plugin");
    mkdirSync(join(home, "backend"));
    env = {
      ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      ...Object.fromEntries(clients.map((name) => [tokenVariable(name), emulator.accounts[name].apiToken])),
    };
    const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "fleet-release-plugin"));
    installPluginTarball({ env: () => env }, plugin);
    const installed = join(env.PULUMI_HOME!, "plugins", "resource-crm-v0.1.0");
    starts = join(home, "plugin-starts");
    renameSync(join(installed, "pulumi-resource-crm"), join(installed, "pulumi-resource-crm.launcher"));
    writeFileSync(
      join(installed, "pulumi-resource-crm"),
      `#!/bin/sh\necho started >> '${starts}'\nexec "$(dirname "$0")/pulumi-resource-crm.launcher" "$@"\n`,
      { mode: 0o755 },
    );
    const ambient = join(home, "ambient");
    mkdirSync(ambient);
    ran = join(home, "ambient-plugin-ran");
    writeFileSync(join(ambient, "pulumi-resource-crm"), `#!/bin/sh\ntouch '${ran}'\necho 'the plugin on PATH' >&2\nexit 1\n`);
    chmodSync(join(ambient, "pulumi-resource-crm"), 0o755);
    env.PATH = [ambient, env.PATH].join(delimiter);
  });
  after(async () => {
    await emulator?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("deploys with the installed release while a pulumi-resource-crm on PATH would fail, and a second up changes nothing", async () => {
    const file = clientsFile(["acme"]);
    assert.match(readFileSync(join(program, "Pulumi.yaml"), "utf8"), /pluginDownloadURL:/);

    const up = await runFleet(bin(), file, env, ["up"]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.match(up.stdout, /^acme +changed /m);
    assert.ok(!existsSync(ran), "the plugin on PATH was started");
    assert.equal((await messagesOf(emulator.accounts.acme)).length, 1);

    // Its schema is kept by the CLI from the first up: the YAML language host starts no plugin of its own for it.
    writeFileSync(starts, "");
    const again = await runFleet(bin(), file, env, ["up"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /^acme +no change /m);
    assert.equal(readFileSync(starts, "utf8"), "started\n", "one plugin for the stack's up");
    assert.ok(!existsSync(ran), "the plugin on PATH was started");

    // The user's own PULUMI_IGNORE_AMBIENT_PLUGINS=false wins: the plugin on PATH runs (and this one fails).
    const onPath = await runFleet(bin(), file, { ...env, PULUMI_IGNORE_AMBIENT_PLUGINS: "false" }, ["up"]);
    assert.equal(onPath.code, 1, onPath.stdout + onPath.stderr);
    assert.ok(existsSync(ran), "the plugin on PATH was not started");
    rmSync(ran);
  });

  it("starts the plugin once for every client's deployment, each client's objects in its own account", async () => {
    const file = clientsFile(clients);
    writeFileSync(starts, "");
    const up = await runFleet(bin(), file, env, ["up", "--parallel", "3"]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.match(up.stdout, /^globex +changed /m);
    assert.match(up.stdout, /^initech +changed /m);
    assert.equal(readFileSync(starts, "utf8"), "started\n", "one plugin for the fleet's up");
    for (const name of clients)
      assert.deepEqual(
        (await messagesOf(emulator.accounts[name])).map((message) => message.fromname),
        [name],
      );

    writeFileSync(starts, "");
    const again = await runFleet(bin(), file, env, ["up", "--parallel", "3"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    for (const name of clients) assert.match(again.stdout, new RegExp(`^${name} +no change `, "m"));
    assert.equal(readFileSync(starts, "utf8"), "started\n", "one plugin for the fleet's no-op up");

    // A Ctrl-C, as a terminal sends it to the command's whole process group while the first
    // client's update runs: the CLIs stop cleanly through the plugin, which ends with the fleet.
    const changed = JSON.parse(readFileSync(file, "utf8"));
    for (const client of changed.clients) client.config.senderEmail = `letters@${client.stack}.example`;
    writeFileSync(file, JSON.stringify(changed));
    let group = 0;
    const stopped = await runFleet(bin(), file, env, ["up", "--parallel", "1"], (child, stderr) => {
      group = child.pid!;
      const poll = setInterval(() => {
        if (/acme: started/.test(stderr())) {
          clearInterval(poll);
          setTimeout(() => process.kill(-group, "SIGINT"), 1500);
        }
      }, 100);
      child.on("close", () => clearInterval(poll));
    });
    assert.equal(stopped.code, 130, stopped.stdout + stopped.stderr);
    assert.match(stopped.stdout, /^initech +interrupted +0\.0 s +not started: interrupted \(Ctrl-C\)$/m, stopped.stdout);
    assert.match(stopped.stdout, /^acme +(changed|interrupted) /m, stopped.stdout);
    assert.doesNotMatch(stopped.stderr, /the shared plugin ended/, "the Ctrl-C ended the plugin the CLIs were stopping through");
    assert.equal(await groupAliveAfter(group), false, "a process of the interrupted fleet, the shared plugin among them, is still running");
    const resumed = await runFleet(bin(), file, env, ["up", "--parallel", "3"]);
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    for (const name of clients) assert.deepEqual((await messagesOf(emulator.accounts[name])).length, 1);

    // A PULUMI_DEBUG_PROVIDERS of the user's own is theirs: each stack's CLI starts its plugin, as without the fleet.
    writeFileSync(starts, "");
    const ownPlugins = await runFleet(bin(), file, { ...env, PULUMI_DEBUG_PROVIDERS: "" }, ["up", "--parallel", "3"]);
    assert.equal(ownPlugins.code, 0, ownPlugins.stdout + ownPlugins.stderr);
    const started = readFileSync(starts, "utf8").split("\n").filter(Boolean).length;
    assert.ok(started >= clients.length, `${started} plugins started for ${clients.length} stacks' ups`);
    assert.ok(!existsSync(ran), "the plugin on PATH was started");
  });
});
