// chat.FlowRun end to end on the real `pulumi` CLI: the packed package in examples/flow-run,
// against the emulator's chat service. One stack: the release's runs first, then, destroyed and
// pointed at a flow that fails, the failing run.

import assert from "node:assert/strict";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { installExample } from "../../scripts/harness/packed-program";
import { flowRunsStarted, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { CliStack, diagnostics } from "../../scripts/harness/pulumi-cli";

const failingFlow = BUILT_IN_FLOWS.find((flow) => flow.failureReason)!;

describe("chat.FlowRun lifecycle on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    // Runs take a second, so that waiting for one sees it progress.
    emulator = await startEmulator({ port: 0, rateLimit: 5, executionDurationMs: 1_000 });
    const program = installExample("flow-run", "lifecycle-flow-run", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", {
      config: { "chat:apiUrl": emulator.chatUrl, "crm-flow-run:release": "1.0" },
      secrets: { "chat:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  const runsStarted = () => flowRunsStarted(emulator);
  const flowRunState = () => stack.resources().find((r) => r.type.endsWith(":FlowRun"))!;

  it("runs the flow on the first up and waits for it, not on a no-op up, and again when the release changes", async () => {
    // The whole `pulumi up`: its preview must start no run.
    const first = await stack.up();
    assert.equal(first.exitCode, 0, first.lines.join("\n"));
    assert.equal(await runsStarted(), 1);
    // The provider host's progress lines, as the CLI relays its output.
    const progress = diagnostics(first, "info");
    assert.match(progress, /chat\.FlowRun of flow 2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31: execution [0-9a-f-]{36} RUNNING, [01] of 2 contacts done/);
    assert.match(progress, /execution [0-9a-f-]{36} COMPLETED, 2 of 2 contacts done \(2 completed\)/);
    const run = flowRunState();
    assert.deepEqual([run.outputs!.status, run.outputs!.statusReason], ["COMPLETED", null]);
    assert.match(String(run.outputs!.finishedOn), /^\d{4}-\d{2}-\d{2}T/);

    const before = await requestCount(emulator);
    const same = await stack.deploy();
    assert.equal(same.steps.same, 2);
    assert.equal((await requestCount(emulator)) - before, 0);

    const check = await stack.driftCheck();
    assert.equal(check.exitCode, 0, check.lines.join("\n"));

    await stack.setConfig({ "crm-flow-run:release": "1.1" });
    const next = await stack.deploy();
    assert.equal(next.steps.replace, 1);
    assert.equal(await runsStarted(), 2);

    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.equal(await runsStarted(), 2);
  });

  it("fails the up with the service's reason when the run fails, keeps the run in the state, and never runs it again", async () => {
    await stack.setConfig({ "crm-flow-run:release": "1.0", "crm-flow-run:flowId": failingFlow.id });
    const before = await runsStarted();
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 1, up.lines.join("\n"));
    const errors = diagnostics(up, "error");
    assert.match(errors, /execution [0-9a-f-]{36} ended FAILED: The flow's webhook step answered 500 Internal Server Error; it is recorded and not run again/);
    assert.equal(errors.split("ended FAILED").length - 1, 1, `the reason is reported once:\n${errors}`);
    assert.match(diagnostics(up, "info"), /execution [0-9a-f-]{36} FAILED, 2 of 2 contacts done \(2 failed\)/);
    const run = flowRunState();
    assert.deepEqual([run.id, run.outputs!.status, run.outputs!.statusReason], [run.outputs!.executionId, "FAILED", failingFlow.failureReason]);

    // The next up updates the run the state records as failed part-way: the provider does not start it again.
    const again = await stack.deploy();
    assert.match(
      diagnostics(again, "info#err"),
      /warning: \[runtime\] .*ended FAILED earlier and is not run again; change triggers to run the flow again/,
      again.lines.join("\n"),
    );
    assert.equal((await runsStarted()) - before, 1);
    assert.equal((await stack.destroy("--skip-preview")).exitCode, 0);
  });
});
