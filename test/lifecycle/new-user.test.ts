// What a new user hits, end to end: the packed package installed into a program
// (test/lifecycle/programs/new-user) whose scenario is chosen by stack config, run
// by the test engine against the emulator.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EngineOptions, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installProgram } from "../support/packed-program";
import { emulatorCall, flowRunsStarted, requestCount, RunningEmulator } from "../support/emulator";

type Scenario = "misspelt-argument" | "nested-unknowns" | "same-name" | "same-label-later" | "adopt-toggle";

describe("what a new user hits, through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installProgram(join(__dirname, "programs", "new-user"), "lifecycle-new-user", { typeCheck: "once" });
  });
  after(async () => emulator?.close());

  const stateFile = (scenario: Scenario) => join(program, `${scenario}.state.json`);
  const engine = (
    command: EngineOptions["command"],
    scenario: Scenario,
    options: { config?: Record<string, string>; secrets?: Record<string, string>; previewOnly?: boolean; expectNoChanges?: boolean; skipPreview?: boolean } = {},
  ) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile: stateFile(scenario),
      config: { "crm:apiUrl": emulator.crmUrl, "chat:apiUrl": emulator.chatUrl, "new-user:scenario": scenario, ...options.config },
      secrets: options.secrets ?? { "crm:apiToken": emulator.apiToken, "chat:apiToken": emulator.apiToken },
      previewOnly: options.previewOnly,
      expectNoChanges: options.expectNoChanges,
      skipPreview: options.skipPreview,
    });
  const accountNames = async () =>
    ((await emulatorCall(emulator, "GET", "/api/3/accounts?limit=100")).body.accounts as Array<{ name: string }>).map((a) => a.name);

  it("a misspelt argument fails preview and up, naming it, and creates nothing", async () => {
    for (const command of ["preview", "up"] as const) {
      const result = await engine(command, "misspelt-argument");
      assert.equal(result.exitCode, 1, result.lines.join("\n"));
      assert.match(result.diagnostics.join("\n"), /accountURL is not a field of this resource; the fields are: name, accountUrl, adoptExisting/);
    }
    assert.ok(!(await accountNames()).includes("Typo Co"));
  });

  it("a missing key fails the preview that up runs first, so nothing is created and no flow runs", async () => {
    const runsBefore = await flowRunsStarted(emulator);
    const preview = await engine("preview", "nested-unknowns", { secrets: { "chat:apiToken": emulator.apiToken } });
    assert.equal(preview.exitCode, 1);
    assert.match(preview.diagnostics.join("\n"), /no CRM API token is configured; run `pulumi config set --secret crm:apiToken/);
    assert.equal(preview.diagnostics.join("\n").split("no CRM API token is configured").length - 1, 1, "the missing setting is said once");
    assert.doesNotMatch(preview.diagnostics.join("\n"), /^\s+at /m, "no stack trace");
    const up = await engine("up", "nested-unknowns", { secrets: { "crm:apiToken": emulator.apiToken } });
    assert.equal(up.exitCode, 1);
    assert.match(up.diagnostics.join("\n"), /no chat API token is configured; run `pulumi config set --secret chat:apiToken/);
    assert.ok(!(await accountNames()).includes("Child Co"));
    assert.equal(await flowRunsStarted(emulator), runsBefore);
  });

  it("values unknown inside nested inputs pass a fresh stack's preview, and up runs the flow with them", async () => {
    const preview = await engine("preview", "nested-unknowns");
    assert.equal(preview.exitCode, 0, preview.diagnostics.join("\n"));
    const runsBefore = await flowRunsStarted(emulator);
    // The update alone (`up --skip-preview`): the preview just run is the one it would run first.
    const up = await engine("up", "nested-unknowns", { skipPreview: true });
    assert.equal(up.exitCode, 0, up.diagnostics.join("\n"));
    assert.equal((await flowRunsStarted(emulator)) - runsBefore, 1);
    const resources = JSON.parse(readFileSync(stateFile("nested-unknowns"), "utf8")).resources as Array<{ type: string; id: string; outputs: any }>;
    const account = resources.find((r) => r.type.endsWith(":Account"))!;
    const run = resources.find((r) => r.type.endsWith(":FlowRun"))!;
    assert.deepEqual(run.outputs.contacts, [
      { firstName: "Ada", externalId: account.id },
      { firstName: "Grace", externalId: account.id, tags: ["Child Co"] },
    ]);
    assert.equal((await engine("destroy", "nested-unknowns")).exitCode, 0);
  });

  it("two resources declaring one name fail the preview, before any request, and nothing is created", async () => {
    const before = await requestCount(emulator);
    const up = await engine("up", "same-name");
    assert.equal(up.exitCode, 1);
    const errors = up.diagnostics.join("\n");
    assert.match(errors, /crm\.Account "twin co": two resources of this program declare the account name "twin co" \(account names are unique regardless of case\)/);
    assert.doesNotMatch(errors, /adoptExisting/);
    assert.ok(!up.lines.includes("Updating:"), "the update must not start after a failed preview");
    assert.equal(await requestCount(emulator), before);
    assert.deepEqual((await accountNames()).filter((name) => name.toLowerCase() === "twin co"), []);
  });

  it("two field labels known only through Outputs fail the preview the same way", async () => {
    const before = await requestCount(emulator);
    const preview = await engine("preview", "same-label-later");
    assert.equal(preview.exitCode, 1);
    assert.match(preview.diagnostics.join("\n"), /crm\.AccountCustomField "TIER": two resources of this program declare the field label "TIER"/);
    assert.equal(await requestCount(emulator), before);
  });

  it("turning adoptExisting on or off for an existing account changes nothing and never shows as drift", async () => {
    const drift = async () => (await engine("refresh", "adopt-toggle", { config: { "new-user:adoptExisting": "true" }, previewOnly: true, expectNoChanges: true })).exitCode;
    // Ups without the preview (`up --skip-preview`): the one account takes no value of another
    // resource, so the preview would make the update's own Check and Diff calls.
    assert.equal((await engine("up", "adopt-toggle", { skipPreview: true })).exitCode, 0);
    for (const adoptExisting of ["true", "false", "true"]) {
      const before = await requestCount(emulator);
      const up = await engine("up", "adopt-toggle", { config: { "new-user:adoptExisting": adoptExisting }, skipPreview: true });
      assert.equal(up.exitCode, 0, up.diagnostics.join("\n"));
      assert.equal(up.changes, false);
      assert.equal((await requestCount(emulator)) - before, 0);
      assert.equal(await drift(), 0);
    }
    // A refresh that writes the state, then the drift check again.
    assert.equal((await engine("refresh", "adopt-toggle")).exitCode, 0);
    assert.equal(await drift(), 0);
    assert.equal((await engine("destroy", "adopt-toggle")).exitCode, 0);
  });
});
