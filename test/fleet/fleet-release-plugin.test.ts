// The fleet's YAML program on the plugin its Pulumi.yaml names (version and pluginDownloadURL),
// installed into the CLI's plugin cache as the CLI installs a release, on the real CLI: not a
// `pulumi-resource-crm` that happens to be on PATH, as the npm package's bin is when the fleet
// runs through `npx pulumi-crm fleet`. Installed so, the CLI keeps the plugin's schema, and a
// stack's `up` starts one plugin, not two.

import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { startEmulator } from "../../emulator";
import { buildPlugins } from "../../scripts/plugin-bundle";
import { ensureToolchain, offlineCliEnvironment, toolchainPath } from "../../scripts/toolchain";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { messagesOf, runFleet, tokenVariable } from "../support/fleet";
import { installedPackageBin, repoRoot } from "../../scripts/harness/packed-program";
import { copyYamlProgram, installPluginTarball } from "../../scripts/harness/plugin-program";

describe("pulumi-crm fleet on the real CLI: the plugin the YAML program names, not one on PATH", function () {
  this.timeout(10 * 60_000);
  let emulator: RunningEmulator;
  let home: string;

  before(async () => {
    emulator = await startEmulator({ accounts: [{ name: "acme" }] });
    home = mkdtempSync(join(tmpdir(), "pulumi-crm-fleet-release-"));
  });
  after(async () => {
    await emulator?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("deploys with the installed release while a pulumi-resource-crm on PATH would fail, and a second up changes nothing", async () => {
    // examples/agency/yaml as it is: its resources name version 0.1.0 and the release's pluginDownloadURL.
    const program = copyYamlProgram(join(repoRoot, "examples", "agency", "yaml"), "fleet-release-plugin");
    assert.match(readFileSync(join(program, "Pulumi.yaml"), "utf8"), /pluginDownloadURL:/);
    mkdirSync(join(home, "backend"));
    const env: NodeJS.ProcessEnv = {
      ...offlineCliEnvironment(home, toolchainPath(ensureToolchain())),
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      [tokenVariable("acme")]: emulator.accounts.acme.apiToken,
    };
    const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "fleet-release-plugin"));
    installPluginTarball({ env: () => env }, plugin);
    // The installed plugin's starts, each logged by a wrapper in its place.
    const installed = join(env.PULUMI_HOME!, "plugins", "resource-crm-v0.1.0");
    const starts = join(home, "plugin-starts");
    renameSync(join(installed, "pulumi-resource-crm"), join(installed, "pulumi-resource-crm.launcher"));
    writeFileSync(
      join(installed, "pulumi-resource-crm"),
      `#!/bin/sh\necho started >> '${starts}'\nexec "$(dirname "$0")/pulumi-resource-crm.launcher" "$@"\n`,
      { mode: 0o755 },
    );
    // First on PATH, as `npx` puts the npm package's bin: a plugin that says it ran, and fails.
    const ambient = join(home, "ambient");
    mkdirSync(ambient);
    const ran = join(home, "ambient-plugin-ran");
    writeFileSync(join(ambient, "pulumi-resource-crm"), `#!/bin/sh\ntouch '${ran}'\necho 'the plugin on PATH' >&2\nexit 1\n`);
    chmodSync(join(ambient, "pulumi-resource-crm"), 0o755);
    env.PATH = [ambient, env.PATH].join(delimiter);
    const clientsFile = join(home, "clients.json");
    const { crmUrl } = emulator.accounts.acme;
    writeFileSync(
      clientsFile,
      JSON.stringify({
        program,
        clients: [
          {
            stack: "acme",
            apiUrl: crmUrl,
            apiToken: `env:${tokenVariable("acme")}`,
            config: { clientName: "Acme", senderEmail: "news@acme.example", street: "1 Main Street", city: "Chicago", country: "US" },
          },
        ],
      }),
    );
    const bin = installedPackageBin("pulumi-crm");

    const up = await runFleet(bin, clientsFile, env, ["up"]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.match(up.stdout, /^acme +changed /m);
    assert.ok(!existsSync(ran), "the plugin on PATH was started");
    assert.equal((await messagesOf(emulator.accounts.acme)).length, 1);

    // Its schema is kept by the CLI from the first up: the YAML language host starts no plugin of its own for it.
    writeFileSync(starts, "");
    const again = await runFleet(bin, clientsFile, env, ["up"]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /^acme +no change /m);
    assert.equal(readFileSync(starts, "utf8"), "started\n", "one plugin for the stack's up");
    assert.ok(!existsSync(ran), "the plugin on PATH was started");

    // The user's own PULUMI_IGNORE_AMBIENT_PLUGINS=false wins: the plugin on PATH runs (and this one fails).
    const onPath = await runFleet(bin, clientsFile, { ...env, PULUMI_IGNORE_AMBIENT_PLUGINS: "false" }, ["up"]);
    assert.equal(onPath.code, 1, onPath.stdout + onPath.stderr);
    assert.ok(existsSync(ran), "the plugin on PATH was not started");
  });
});
