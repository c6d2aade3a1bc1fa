// A Pulumi YAML program on the native plugin pulumi-resource-crm, on the real CLI through
// pulumi-language-yaml: test/plugin/programs/yaml-crm declares an account, a custom field and
// the account's value of it through an explicit provider, whose account is an emulator the
// stack's settings do not name. Its Pulumi.yaml names the plugin's folder in plugins.providers.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { emulatorRead, type RunningEmulator } from "../../scripts/harness/emulator";
import { assertNoOpUp, assertRenameRepaired, installYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";

describe("a Pulumi YAML program on the native plugin, through an explicit provider", function () {
  this.timeout(20 * 60_000);
  let client: RunningEmulator;
  let stack: CliStack;
  const accountNames = async () => (await emulatorRead(client, "/accounts")).accounts.map((account: { name: string }) => account.name);

  before(async () => {
    client = await startEmulator({ port: 0, rateLimit: 5 });
    const { program } = await installYamlProgram(join(__dirname, "programs", "yaml-crm"), "plugin-yaml-crm");
    stack = await CliStack.create(program, "dev", { config: { clientUrl: client.crmUrl }, secrets: { clientToken: client.apiToken } });
  });
  after(async () => {
    await client?.close();
    stack?.remove();
  });

  it("up creates the account, the field and its value in the provider's account", async () => {
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.steps.create, 5, up.lines.join("\n")); // the stack, the provider, three crm resources
    assert.deepEqual(await accountNames(), ["Acme"]);
    const { acmeId } = await stack.outputs();
    const values = (await emulatorRead(client, `/accountCustomFieldData?filters[customerAccountId]=${acmeId}`)).accountCustomFieldData;
    assert.deepEqual(
      values.map((value: { fieldValue: string }) => value.fieldValue),
      ["Gold"],
    );
  });

  it("a second up, its preview included, changes nothing and sends no request", () => assertNoOpUp(stack, client));

  it("a change out of band is drift: the drift check exits 7, up --refresh repairs it", async () => {
    await assertRenameRepaired(stack, client, (await stack.outputs()).acmeId, "Acme");
    assert.equal((await stack.driftCheck()).exitCode, 0);
  });

  it("destroy deletes what the program made", async () => {
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.deepEqual(await accountNames(), []);
    assert.deepEqual((await emulatorRead(client, "/accountCustomFieldMeta")).accountCustomFieldMeta, []);
  });
});
