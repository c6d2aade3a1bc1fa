// A TypeScript program on the generated Node.js SDK (@pulumi-crm/crm, packed from
// sdk/nodejs/crm) on the real CLI, on the native plugin pulumi-resource-crm (named in its
// Pulumi.yaml plugins.providers): installed as users install a package, type-checked against
// the SDK's declarations, run through up, a no-op up, the drift check, up --refresh and destroy
// of an account on the emulator. The program takes the accounts' names from its
// `generated-sdk:accounts` config.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { buildPlugins } from "../../scripts/plugin-bundle";
import { emulatorRead, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { assertNoOpUp, assertRenameRepaired, namePluginFolders } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";

describe("a TypeScript program on the generated Node.js SDK and the native plugin, on the real CLI", function () {
  this.timeout(10 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const accountNames = async () => (await emulatorRead(emulator, "/accounts")).accounts.map((account: { name: string }) => account.name);

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const program = installProgram(join(__dirname, "programs", "generated-sdk"), "lifecycle-generated-sdk", { generatedSdks: ["crm"], typeCheck: "once" });
    const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "lifecycle-generated-sdk"));
    namePluginFolders(program, { [plugin.pkg]: plugin.folder });
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator, { "generated-sdk:accounts": JSON.stringify(["Acme"]) }));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("up creates the account through the plugin", async () => {
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.steps.create, 2, up.lines.join("\n")); // the stack and the account
    assert.deepEqual(await accountNames(), ["Acme"]);
    const [account] = stack.resources().filter((resource) => resource.type === "crm:index:Account");
    assert.deepEqual(await stack.outputs(), { accountIds: [account.id] });
  });

  it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(stack, emulator));

  it("a change out of band is drift: the drift check exits 7, up --refresh repairs it", async () =>
    assertRenameRepaired(stack, emulator, (await stack.outputs()).accountIds[0], "Acme"));

  it("destroy deletes the account", async () => {
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.deepEqual(await accountNames(), []);
  });
});
