// Both doors alike, on the real CLI: each case run through the dynamic classes (a TypeScript
// program, test/plugin/programs/both-doors) and through the plugin (a Pulumi YAML program written
// here with the same resources by the same names), and what the CLI then says and leaves compared:
// an action that stopped part way, a key given as plain config, an adoption, a name declared
// twice. Explicit providers exist in the plugin's door only: their messages are checked there.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPlugins, type BuiltPlugin } from "../../scripts/plugin-bundle";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { emulatorCall, emulatorRead, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { installProgram, repoRoot } from "../../scripts/harness/packed-program";
import { copyYamlProgram, namePluginFolders } from "../../scripts/harness/plugin-program";
import { type CliResult, CliStack, diagnostics, resourceErrors } from "../../scripts/harness/pulumi-cli";

type Door = "dynamic" | "plugin";
const doors: Door[] = ["dynamic", "plugin"];

/** The YAML program's resources of each scenario: those of the TypeScript program, by the same names. */
const yamlResources: Record<string, (config: Record<string, string>) => string[]> = {
  actions: (config) => [
    "  sync:",
    "    type: crm:ContactSync",
    "    properties:",
    "      contacts:",
    ...Array.from({ length: 300 }, (_, n) => `        - email: person${n}@example.com`),
    "  welcome:",
    "    type: chat:FlowRun",
    "    properties:",
    `      flowId: ${config.flowId}`,
    "      contacts:",
    "        - phone: '+15550100'",
    "      waitForCompletion: true",
    "      timeoutSeconds: 1",
  ],
  adopt: (config) => ["  adopted:", "    type: crm:Account", "    properties:", "      name: Adopted Co", `      adoptId: "${config.adoptId}"`],
  duplicates: () => [
    "  first:",
    "    type: crm:Account",
    "    properties:",
    "      name: Dup Co",
    "  second:",
    "    type: crm:Account",
    "    properties:",
    "      name: DUP co",
  ],
  "one-account": () => ["  only:", "    type: crm:Account", "    properties:", "      name: Only Co"],
  replace: (config) => ["  tier:", "    type: crm:AccountCustomField", "    properties:", "      fieldLabel: Tier", `      fieldType: ${config.fieldType}`],
};

const output = (result: CliResult) => result.lines.join("\n");

describe("both doors alike, on the real CLI: the dynamic classes and the plugin", function () {
  this.timeout(30 * 60_000);
  let tsProgram: string;
  let plugins: BuiltPlugin[];
  const stacks: CliStack[] = [];
  const emulators: RunningEmulator[] = [];

  before(async () => {
    tsProgram = installProgram(join(__dirname, "programs", "both-doors"), "plugin-both-doors", { typeCheck: "once" });
    plugins = await buildPlugins(join(repoRoot, ".work", "plugins", "both-doors"));
  });
  after(async () => {
    for (const stack of stacks) stack.remove();
    for (const emulator of emulators) await emulator.close();
  });

  const emulatorFor = async (options: Parameters<typeof startEmulator>[0] = {}) => {
    const emulator = await startEmulator({ port: 0, rateLimit: 0, ...options });
    emulators.push(emulator);
    return emulator;
  };

  /** A stack of `scenario` through `door`, on `emulator`'s services, the keys given as secrets unless `plainKey`. */
  async function stackOf(
    door: Door,
    scenario: string,
    emulator: RunningEmulator,
    options: { config?: Record<string, string>; plainKey?: boolean; yaml?: string[] } = {},
  ): Promise<CliStack> {
    const settings = { "crm:apiUrl": emulator.crmUrl, "chat:apiUrl": emulator.chatUrl, "crm:requestsPerSecond": "0" };
    const keys = { "crm:apiToken": emulator.apiToken, "chat:apiToken": emulator.apiToken };
    const given = { config: { ...settings, ...(options.plainKey ? keys : {}) }, secrets: options.plainKey ? {} : keys };
    let stack: CliStack;
    if (door === "dynamic") {
      stack = await CliStack.create(tsProgram, `${scenario}-${emulators.length}`, {
        config: { ...given.config, scenario, ...options.config },
        secrets: given.secrets,
      });
    } else {
      const folder = copyYamlProgram(undefined, `both-doors-${scenario}-${emulators.length}`);
      writeYaml(folder, options.yaml ?? yamlResources[scenario](options.config ?? {}));
      stack = await CliStack.create(folder, "dev", given);
    }
    stacks.push(stack);
    return stack;
  }

  /** The YAML program of `resources`, on the plugins built for this test. */
  function writeYaml(folder: string, resources: string[]): void {
    writeFileSync(join(folder, "Pulumi.yaml"), ["name: both-doors", "runtime: yaml", "resources:", ...resources, ""].join("\n"));
    namePluginFolders(folder, Object.fromEntries(plugins.map((plugin) => [plugin.pkg, plugin.folder])));
  }

  for (const door of doors) {
    it(`${door}: an action stopped part way leaves a stack that refresh and destroy handle`, async () => {
      const emulator = await emulatorFor({ executionDurationMs: 4_000 });
      const stack = await stackOf(door, "actions", emulator, { config: { flowId: BUILT_IN_FLOWS[0].id } });
      const total = Number((await emulatorRead(emulator, "/contacts?limit=1")).meta.total);
      await emulatorCall(emulator, "POST", "/__emulator/limits", { contacts: total + 260 });
      // Both resources go ahead, whichever fails first.
      const up = await stack.up("--skip-preview", "--continue-on-error");
      assert.notEqual(up.exitCode, 0, output(up));
      assert.match(output(up), /250 of 300 rows were queued before it stopped/);
      assert.match(output(up), /is still RUNNING after 1 s/);
      // Both resources are recorded as made ("failed to initialize"): read and deleted as any other.
      const refresh = await stack.run(["refresh", "--preview-only"]);
      assert.equal(refresh.exitCode, 0, output(refresh));
      const destroy = await stack.destroy("--skip-preview");
      assert.equal(destroy.exitCode, 0, output(destroy));
      assert.doesNotMatch(output(refresh) + output(destroy), /must be a string/);
      assert.deepEqual(stack.resources(), []);
    });
  }

  it("dynamic: a key in plain config keeps the program from running, the key and the command named; nothing is sent or stored", async () => {
    const emulator = await emulatorFor();
    const stack = await stackOf("dynamic", "one-account", emulator, { plainKey: true });
    const before = await requestCount(emulator);
    const up = await stack.up();
    assert.equal(up.exitCode, 1, output(up));
    const errors = diagnostics(up, "error");
    assert.match(errors, /pulumi-crm: crm:apiToken and chat:apiToken are in the stack's configuration in plain text/);
    assert.match(errors, /`pulumi config set --secret crm:apiToken <key>`, `pulumi config set --secret chat:apiToken <key>`/);
    assert.doesNotMatch(errors, /\n\s+at /, "no stack frames");
    assert.equal(await requestCount(emulator), before);
    assert.equal(JSON.stringify(await stack.exported()).includes(emulator.apiToken), false);
  });

  it("plugin: the same plain config is stored encrypted, the program runs", async () => {
    const emulator = await emulatorFor();
    const stack = await stackOf("plugin", "one-account", emulator, { plainKey: true });
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(JSON.stringify(await stack.exported()).includes(emulator.apiToken), false);
  });

  const adoptionSummary =
    /pulumi-crm: this deployment took over 1 existing object, now managed by this stack: a destroy, or removing one from the program, deletes it/;
  for (const door of doors) {
    it(`${door}: an adoption is summed up with what a destroy then does`, async () => {
      const emulator = await emulatorFor();
      const existing = await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Adopted Co" } });
      const stack = await stackOf(door, "adopt", emulator, { config: { adoptId: String(existing.body.account.id) } });
      const up = await stack.up("--skip-preview");
      assert.equal(up.exitCode, 0, output(up));
      assert.match(output(up), /took over existing object/);
      assert.match(output(up), adoptionSummary);
    });
  }

  // The resource refused is the later of the two in the order the engine checks them: a TypeScript
  // program's order of declaration; the YAML host's own order, which need not be the file's.
  const refusals: Partial<Record<Door, string>> = {};
  for (const door of doors) {
    it(`${door}: an account name declared twice refuses one of the two at its check, by the one rule, before any request`, async () => {
      const emulator = await emulatorFor();
      const stack = await stackOf(door, "duplicates", emulator);
      const before = await requestCount(emulator);
      const up = await stack.up();
      assert.equal(up.exitCode, 1, output(up));
      const refused = resourceErrors(up).filter((error) => /two resources of this program declare/.test(error.message));
      assert.equal(refused.length, 1, output(up));
      const name = refused[0].urn.endsWith("::first") ? "Dup Co" : "DUP co";
      if (door === "dynamic") assert.equal(name, "DUP co", "the second declared");
      assert.doesNotMatch(output(up), /unhandled exception|\n\s+at /);
      refusals[door] = refused[0].message.slice(refused[0].message.indexOf("crm.Account")).replaceAll(name, "<name>");
      assert.equal(await requestCount(emulator), before);
      assert.deepEqual((await emulatorRead(emulator, "/accounts?search=dup")).accounts, []);
    });
  }
  it("both doors refuse it with the same message", () => {
    assert.ok(refusals.dynamic && refusals.plugin, "both cases ran");
    assert.equal(refusals.dynamic, refusals.plugin);
    assert.equal(
      refusals.plugin,
      'crm.Account "<name>": two resources of this program declare the account name "<name>" (account names are unique regardless of case); give each its own account name.',
    );
  });

  // The dynamic provider protocol carries no detailed diff (the SDK's host forwards `changes`,
  // `replaces` and `deleteBeforeReplace`): the engine shows the replaced fields it names, and
  // diffs the old outputs against the new inputs for the rest (sdk-docs/native-plugins.md).
  for (const door of doors) {
    it(`${door}: a replace's preview names the field that replaces the object`, async () => {
      const emulator = await emulatorFor();
      const stack = await stackOf(door, "replace", emulator, { config: { fieldType: "text" } });
      await stack.deploy();
      if (door === "dynamic") await stack.setConfig({ fieldType: "textarea" });
      else writeYaml(stack.program, yamlResources.replace({ fieldType: "textarea" }));
      const preview = await stack.run(["preview", "--json"]);
      assert.equal(preview.exitCode, 0, output(preview));
      const step = (
        JSON.parse(preview.stdout) as { steps: Array<{ op: string; urn: string; replaceReasons?: string[]; detailedDiff?: Record<string, unknown> }> }
      ).steps.find((step) => step.urn.endsWith("::tier"))!;
      assert.deepEqual([step.op, step.replaceReasons], ["replace", ["fieldType"]]);
      if (door === "plugin") assert.deepEqual(Object.keys(step.detailedDiff ?? {}), ["fieldType"]);
      else assert.equal(step.detailedDiff ?? undefined, undefined, "the dynamic protocol's: the engine's own diff");
    });
  }

  it("plugin: explicit providers named default and default_eu are named by their names in a refused key's message", async () => {
    const emulator = await emulatorFor();
    const provider = (name: string) => [
      `  ${name}:`,
      "    type: pulumi:providers:crm",
      "    properties:",
      `      apiUrl: ${emulator.crmUrl}`,
      `      apiToken: wrong-key-${name}`,
    ];
    const account = (name: string, provider: string) => [
      `  ${name}:`,
      "    type: crm:Account",
      "    properties:",
      `      name: ${name}`,
      "    options:",
      `      provider: \${${provider}}`,
    ];
    const yaml = [...provider("default"), ...provider("default_eu"), ...account("home", "default"), ...account("abroad", "default_eu")];
    const stack = await stackOf("plugin", "explicit-providers", emulator, { yaml });
    const up = await stack.up("--skip-preview");
    assert.notEqual(up.exitCode, 0, output(up));
    const errors = resourceErrors(up);
    for (const [account, name] of [
      ["home", "default"],
      ["abroad", "default_eu"],
    ]) {
      const message = errors.find((error) => error.urn.endsWith(`::${account}`))?.message ?? "";
      assert.match(
        message,
        new RegExp(
          `the service refused the key in apiToken of the provider "${name}": check that it is valid for this account \\(give the provider "${name}" its apiToken setting\\)`,
        ),
        output(up),
      );
      assert.doesNotMatch(message, /crm:apiToken|wrong-key/);
    }
  });
});
