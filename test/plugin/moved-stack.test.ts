// A stack the dynamic classes made, of an object of every importable crm type, moved to the
// native plugin on the real CLI: the same program on the generated SDK (whose classes carry the
// schema's aliases to the dynamic types), one `up` with no create, replace or update and no
// write; one refresh leaves no __provider; the drift check is clean, a second up sends nothing,
// and destroy through the plugin deletes what the dynamic classes made (the branding put back).

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { buildPlugins } from "../../scripts/plugin-bundle";
import { emulatorCall, emulatorRead, requestCount, type RunningEmulator, writeCount } from "../../scripts/harness/emulator";
import { installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { namePluginFolders } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";
import { resources } from "../../provider/registry";

const importable = resources
  .filter((resource) => resource.namespace === "crm" && resource.definition.core.importable === true)
  .map((resource) => resource.className);

describe("a stack of every importable crm type made by the dynamic classes, moved to the native plugin", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  const types = () =>
    stack
      .resources()
      .filter((resource) => resource.custom && !resource.type.startsWith("pulumi:providers:"))
      .map((resource) => resource.type);

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    await emulatorCall(emulator, "PUT", "/api/3/brandings/1", { branding: { siteName: "Theirs" } });
    const contact = await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "ada@example.com" } });
    const program = installProgram(join(__dirname, "programs", "moved-stack"), "plugin-moved-stack-all", { generatedSdks: ["crm"], typeCheck: "once" });
    const [plugin] = await buildPlugins(join(repoRoot, ".work", "plugins", "plugin-moved-stack-all"));
    namePluginFolders(program, { [plugin.pkg]: plugin.folder });
    stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": emulator.crmUrl, mode: "dynamic", contactId: String((contact.body as { contact: { id: unknown } }).contact.id) },
      secrets: { "crm:apiToken": emulator.apiToken },
    });
    const made = await stack.up("--skip-preview");
    assert.equal(made.exitCode, 0, made.lines.join("\n"));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("the dynamic classes made one object of every importable type", () => {
    assert.deepEqual(new Set(types()), new Set(importable.map((name) => `pulumi-nodejs:dynamic/crm:${name}`)));
  });

  it("moves every one through the schema's aliases: no create, replace or update, no write", async () => {
    await stack.setConfig({ mode: "native" });
    const before = await writeCount(emulator);
    const moved = await stack.up();
    assert.equal(moved.exitCode, 0, moved.lines.join("\n"));
    assert.deepEqual([moved.steps.create, moved.steps.update, moved.steps.replace, moved.steps.delete], [0, 0, 0, 0], moved.lines.join("\n"));
    assert.equal(await writeCount(emulator), before);
    assert.deepEqual(new Set(types()), new Set(importable.map((name) => `crm:index:${name}`)));
  });

  it("one refresh leaves no __provider; the drift check is clean and a second up sends nothing", async () => {
    const refreshed = await stack.refresh("--skip-preview");
    assert.equal(refreshed.exitCode, 0, refreshed.lines.join("\n"));
    assert.doesNotMatch(stack.stateText(), /__provider/);
    assert.equal((await stack.driftCheck()).exitCode, 0);
    const before = await requestCount(emulator);
    const noOp = await stack.up();
    assert.equal(noOp.changes, false, noOp.lines.join("\n"));
    assert.equal(await requestCount(emulator), before);
  });

  it("destroy through the plugin deletes what the dynamic classes made, and puts the branding back", async () => {
    const destroyed = await stack.destroy("--skip-preview");
    assert.equal(destroyed.exitCode, 0, destroyed.lines.join("\n"));
    assert.deepEqual((await emulatorRead(emulator, "/accounts")).accounts, []);
    assert.deepEqual((await emulatorRead(emulator, "/addresses")).addresses, []);
    assert.equal((await emulatorRead(emulator, "/brandings/1")).branding.siteName, "Theirs");
  });
});
