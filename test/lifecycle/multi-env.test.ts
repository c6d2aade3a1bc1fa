// examples/multi-env on the real `pulumi` CLI: one program, a dev and a prod stack (each in a
// backend of its own) against one emulator, each configured by its own Pulumi.<stack>.yaml.
// Checks that the stacks differ exactly as their configuration says, then that each is steady
// (a no-op up sends no request, a drift check finds nothing) and destroys cleanly.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { installExample } from "../../scripts/harness/packed-program";
import { emulatorRead, emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { CliStack } from "../../scripts/harness/pulumi-cli";

describe("examples/multi-env: dev and prod stacks of one program", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  const stackNames = ["dev", "prod"] as const;
  type Stack = (typeof stackNames)[number];
  const stacks = {} as Record<Stack, CliStack>;

  before(async () => {
    // Flow runs end quickly, so that waiting for them does not slow the test.
    emulator = await startEmulator({ port: 0, executionDurationMs: 100 });
    const program = installExample("multi-env", "lifecycle-multi-env", { typeCheck: "once" });
    // Only the endpoints and tokens come from the test: everything else from Pulumi.<stack>.yaml.
    for (const name of stackNames) {
      stacks[name] = await CliStack.create(program, name, {
        config: { "crm:apiUrl": emulator.crmUrl, "chat:apiUrl": emulator.chatUrl },
        secrets: { "crm:apiToken": emulator.apiToken, "chat:apiToken": emulator.apiToken },
      });
    }
  });
  after(async () => {
    await emulator?.close();
    for (const stack of Object.values(stacks)) stack.remove();
  });

  const get = (path: string) => emulatorRead(emulator, path);
  /** Flow runs the chat service started: answered 2xx (a run refused with 429 is retried, and not started). */
  const runsStarted = async () =>
    Object.entries((await emulatorStats(emulator)).byRouteAndStatus)
      .filter(([route]) => route.startsWith("POST") && route.endsWith("/run"))
      .flatMap(([, byStatus]) => Object.entries(byStatus))
      .reduce((sum, [status, count]) => sum + (status.startsWith("2") ? count : 0), 0);
  const ofType = (stack: Stack, type: string) => stacks[stack].resources().filter((r) => r.type.endsWith(`:${type}`));

  it("deploys dev and prod, which differ as their stack files say", async () => {
    // The two stacks deploy at once, as two teams' pipelines would.
    const [dev, prod] = await Promise.all([stacks.dev.deploy(), stacks.prod.deploy()]);
    // stack, account, 3 fields, 3 values, 1 flow run
    assert.equal(dev.steps.create, 9, dev.lines.join("\n"));
    // stack, account, 2 fields, 2 values, 2 flow runs
    assert.equal(prod.steps.create, 8, prod.lines.join("\n"));
    assert.equal(await runsStarted(), 3);

    const accounts = (await get("/accounts?limit=100")).accounts as Array<{ id: string; name: string; accountUrl: string | null }>;
    assert.deepEqual(accounts.map((a) => [a.name, a.accountUrl]).sort(), [
      ["Acme Inc", "https://acme.example"],
      ["[dev] Acme Inc", "https://dev.acme.example"],
    ]);
    const labels = ((await get("/accountCustomFieldMeta?limit=100")).accountCustomFieldMeta as Array<{ fieldLabel: string }>).map((f) => f.fieldLabel).sort();
    assert.deepEqual(labels, ["Industry", "Renewal date", "[dev] Industry", "[dev] Seats", "[dev] Tier"]);
    // Each stack's values are on its own account.
    for (const stack of stackNames) {
      const [account] = ofType(stack, "Account");
      const values = (await get(`/accountCustomFieldData?filters[customerAccountId]=${account.id}`)).accountCustomFieldData as unknown[];
      assert.equal(values.length, ofType(stack, "AccountCustomField").length, stack);
    }
    assert.deepEqual(
      ofType("dev", "FlowRun").map((r) => r.outputs!.flowId),
      ["2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31"],
    );
    assert.deepEqual(
      ofType("prod", "FlowRun")
        .map((r) => r.outputs!.flowId)
        .sort(),
      ["2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31", "bf5d0ee7-5586-408e-9d5a-a4fd63f166d4"],
    );
    assert.deepEqual(
      ofType("prod", "FlowRun").map((r) => r.outputs!.contacts.length),
      [2, 2],
    );
  });

  it("each stack is steady: a no-op up sends no request and runs no flow, a drift check finds nothing", async () => {
    const before = await requestCount(emulator);
    const again = await Promise.all(stackNames.map((name) => stacks[name].deploy()));
    for (const result of again) assert.equal(result.changes, false, result.lines.join("\n"));
    assert.equal((await requestCount(emulator)) - before, 0, "requests during the no-op ups");
    const drift = await Promise.all(stackNames.map((name) => stacks[name].driftCheck()));
    for (const result of drift) {
      assert.equal(result.exitCode, 0, result.lines.join("\n"));
      assert.equal(result.changes, false);
    }
    assert.equal(await runsStarted(), 3);
  });

  it("destroying dev leaves prod alone; destroying prod leaves nothing", async () => {
    const dev = await stacks.dev.destroy("--skip-preview");
    assert.equal(dev.exitCode, 0, dev.lines.join("\n"));
    assert.deepEqual(
      ((await get("/accounts?limit=100")).accounts as Array<{ name: string }>).map((a) => a.name),
      ["Acme Inc"],
    );
    const prod = await stacks.prod.destroy("--skip-preview");
    assert.equal(prod.exitCode, 0, prod.lines.join("\n"));
    assert.deepEqual((await get("/accounts?limit=100")).accounts, []);
    assert.deepEqual((await get("/accountCustomFieldMeta?limit=100")).accountCustomFieldMeta, []);
  });
});
