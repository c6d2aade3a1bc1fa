// What a new user hits, end to end: the packed package installed into a program
// (test/lifecycle/programs/new-user) whose scenario is chosen by stack config, run on the
// pulumi CLI against the emulator, one stack for every scenario.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { emulatorCall, flowRunsStarted, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { type CliResult, CliStack, diagnostics, nameOf, stepsOf } from "../../scripts/harness/pulumi-cli";

type Scenario = "misspelt-argument" | "long-value" | "nested-mistake" | "nested-unknowns" | "same-name" | "same-label-later" | "adopt-toggle";

/**
 * How often a run says `text`: in its error diagnostics (the engine events) and in the summary
 * the CLI prints under "Diagnostics:". The CLI also repeats each error on the line of its resource
 * as the run goes; that echo is its display of every error, not a second message.
 */
function timesSaid(result: CliResult, text: string): { diagnostics: number; summary: number } {
  const count = (haystack: string) => haystack.split(text).length - 1;
  const summary = result.stdout.slice(result.stdout.indexOf("\nDiagnostics:"), result.stdout.indexOf("\nResources:"));
  return { diagnostics: count(diagnostics(result, "error")), summary: count(summary) };
}

describe("what a new user hits, on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const program = installProgram(join(__dirname, "programs", "new-user"), "lifecycle-new-user", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": emulator.crmUrl, "chat:apiUrl": emulator.chatUrl },
      secrets: { "crm:apiToken": emulator.apiToken, "chat:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    stack?.remove();
    await emulator?.close();
  });

  const useScenario = (scenario: Scenario, config: Record<string, string> = {}) => stack.setConfig({ "new-user:scenario": scenario, ...config });
  const removeConfig = (key: string) => stack.succeed(["config", "rm", key]);
  const output = (result: CliResult) => result.lines.join("\n");
  const accountNames = async () =>
    ((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ name: string }>).map((a) => a.name);

  it("a misspelt argument fails preview and up, naming it, and creates nothing", async () => {
    await useScenario("misspelt-argument");
    for (const result of [await stack.preview(), await stack.up()]) {
      assert.equal(result.exitCode, 1, output(result));
      assert.match(diagnostics(result, "error"), /accountURL is not a field of this resource; the fields are: name, accountUrl, adoptExisting/);
    }
    assert.ok(!(await accountNames()).includes("Typo Co"));
  });

  it("a long value is cut in the messages, and a nested field's mistake shows the field and its value", async () => {
    await useScenario("long-value");
    const long = await stack.preview();
    assert.equal(long.exitCode, 1, output(long));
    assert.match(
      diagnostics(long, "error"),
      /crm\.Account "(Pasted){9}Paste…": name must be at most 255 characters \(given "(Pasted){9}Paste…" \(1050 characters\)\)/,
    );
    // The CLI prints each error on its resource's line and again under Diagnostics; none of them whole.
    const named = long.lines.filter((line) => line.includes("Pasted"));
    assert.ok(named.length > 0 && named.every((line) => line.length < 400), named.join("\n"));

    await useScenario("nested-mistake");
    const nested = await stack.preview();
    assert.equal(nested.exitCode, 1, output(nested));
    assert.match(diagnostics(nested, "error"), /chat\.FlowRun of flow [-0-9a-f]+: contacts\[0\]\.email must be a string \(given 5\)/);
    assert.doesNotMatch(output(nested), /<nil>/);
  });

  it("a missing key fails the preview that up runs first, so nothing is created and no flow runs", async () => {
    const runsBefore = await flowRunsStarted(emulator);
    await useScenario("nested-unknowns");
    await removeConfig("crm:apiToken");
    const preview = await stack.preview();
    assert.equal(preview.exitCode, 1, output(preview));
    assert.match(diagnostics(preview, "error"), /no CRM API token is configured; run `pulumi config set --secret crm:apiToken/);
    assert.deepEqual(timesSaid(preview, "no CRM API token is configured"), { diagnostics: 1, summary: 1 }, "the missing setting is said once");
    assert.doesNotMatch(output(preview), /^\s+at /m, "no stack trace");

    await stack.setConfig({}, { "crm:apiToken": emulator.apiToken });
    await removeConfig("chat:apiToken");
    const up = await stack.up();
    assert.equal(up.exitCode, 1, output(up));
    assert.match(diagnostics(up, "error"), /no chat API token is configured; run `pulumi config set --secret chat:apiToken/);
    assert.doesNotMatch(up.stdout, /^Updating \(/m, "the update must not start after a failed preview");
    assert.ok(!(await accountNames()).includes("Child Co"));
    assert.equal(await flowRunsStarted(emulator), runsBefore);
    await stack.setConfig({}, { "chat:apiToken": emulator.apiToken });
  });

  it("values unknown inside nested inputs pass a fresh stack's preview, and up runs the flow with them", async () => {
    await useScenario("nested-unknowns");
    const preview = await stack.preview();
    assert.equal(preview.exitCode, 0, output(preview));
    const runsBefore = await flowRunsStarted(emulator);
    // The update alone (`up --skip-preview`): the preview just run is the one it would run first.
    await stack.deploy();
    assert.equal((await flowRunsStarted(emulator)) - runsBefore, 1);
    const resources = stack.resources();
    const account = resources.find((r) => r.type.endsWith(":Account"))!;
    const run = resources.find((r) => r.type.endsWith(":FlowRun"))!;
    assert.deepEqual(run.outputs!.contacts, [
      { firstName: "Ada", externalId: account.id },
      { firstName: "Grace", externalId: account.id, tags: ["Child Co"] },
    ]);
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, output(destroy));
  });

  it("two resources declaring one name fail the preview, before any request, and nothing is created", async () => {
    await useScenario("same-name");
    const before = await requestCount(emulator);
    const up = await stack.up();
    assert.equal(up.exitCode, 1, output(up));
    const errors = diagnostics(up, "error");
    assert.match(
      errors,
      /crm\.Account "twin co": two resources of this program declare the account name "twin co" \(account names are unique regardless of case\)/,
    );
    assert.deepEqual(timesSaid(up, "two resources of this program declare"), { diagnostics: 1, summary: 1 });
    assert.doesNotMatch(errors, /adoptExisting/);
    assert.doesNotMatch(up.stdout, /^Updating \(/m, "the update must not start after a failed preview");
    assert.equal(await requestCount(emulator), before);
    assert.deepEqual(
      (await accountNames()).filter((name) => name.toLowerCase() === "twin co"),
      [],
    );
  });

  it("two field labels known only through Outputs fail the preview the same way", async () => {
    await useScenario("same-label-later");
    const before = await requestCount(emulator);
    const preview = await stack.preview();
    assert.equal(preview.exitCode, 1, output(preview));
    assert.match(diagnostics(preview, "error"), /crm\.AccountCustomField "TIER": two resources of this program declare the field label "TIER"/);
    assert.equal(await requestCount(emulator), before);
  });

  describe("adoptExisting on accounts", () => {
    const drift = async () => (await stack.driftCheck()).exitCode;

    it("turning adoptExisting on or off for existing accounts changes nothing and never shows as drift", async () => {
      // Ups without the preview (`up --skip-preview`): the accounts take no value of another
      // resource, so the preview would make the update's own Check and Diff calls.
      await useScenario("adopt-toggle");
      await stack.deploy();
      for (const adoptExisting of ["true", "false", "true"]) {
        await stack.setConfig({ "new-user:adoptExisting": adoptExisting });
        const before = await requestCount(emulator);
        const up = await stack.deploy();
        assert.equal(up.changes, false, output(up));
        assert.equal((await requestCount(emulator)) - before, 0);
        assert.equal(await drift(), 0);
      }
      // A refresh that writes the state, then the drift check again.
      const refresh = await stack.refresh("--skip-preview");
      assert.equal(refresh.exitCode, 0, output(refresh));
      assert.equal(await drift(), 0);
    });

    it("up --refresh after one account is renamed out of band shows that account's change alone", async () => {
      const renamed = stack.resources().find((r) => r.outputs?.name === "Toggle Two")!;
      await emulatorCall(emulator, "PUT", `/api/3/accounts/${renamed.id}`, { account: { name: "Toggle Renamed" } });
      const up = await stack.up("--refresh", "--skip-preview");
      assert.equal(up.exitCode, 0, output(up));
      assert.deepEqual(up.steps, { create: 0, update: 1, replace: 0, delete: 0, same: 3 });
      assert.deepEqual(
        stepsOf(up)
          .filter((step) => step.op === "update")
          .map((step) => nameOf(step.urn)),
        [nameOf(renamed.urn)],
      );
      // The refresh's line and the update's, each with the one field that changed.
      const diffLines = up.stdout.split("\n").filter((line) => line.includes("[diff:"));
      assert.ok(diffLines.length > 0, up.stdout);
      for (const line of diffLines) assert.match(line, new RegExp(` ${nameOf(renamed.urn)} .*\\[diff: ~name\\]\\s*$`), diffLines.join("\n"));
      const destroy = await stack.destroy("--skip-preview");
      assert.equal(destroy.exitCode, 0, output(destroy));
    });
  });
});
