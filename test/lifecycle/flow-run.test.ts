// chat.FlowRun end to end: the packed package in a program, run by the test
// engine against the emulator's chat service.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EngineResult, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { installExample } from "../support/packed-program";
import { flowRunsStarted, requestCount, RunningEmulator } from "../support/emulator";

const failingFlow = BUILT_IN_FLOWS.find((flow) => flow.failureReason)!;

describe("chat.FlowRun lifecycle through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;

  before(async () => {
    // Runs take a second, so that waiting for one sees it progress.
    emulator = await startEmulator({ port: 0, rateLimit: 5, executionDurationMs: 1_000 });
    program = installExample("flow-run", "lifecycle-flow-run", { typeCheck: "once" });
  });
  after(async () => emulator?.close());

  const stateFile = (stack: string) => join(program, `${stack}.state.json`);
  const engine = (command: "up" | "refresh" | "destroy", stack: string, config: Record<string, string>, expectNoChanges = false, skipPreview = false) =>
    runEngine({
      command,
      cwd: program,
      stack,
      stateFile: stateFile(stack),
      config: { "chat:apiUrl": emulator.chatUrl, ...config },
      secrets: { "chat:apiToken": emulator.apiToken },
      expectNoChanges,
      previewOnly: expectNoChanges,
      skipPreview,
    });
  // Ups after the dev stack's first skip the preview (`up --skip-preview`): the run takes no value of
  // another resource, so the preview would make the update's own Check and Diff calls, and it starts no run.
  const upWithoutPreview = (stack: string, config: Record<string, string>) => engine("up", stack, config, false, true);
  const runsStarted = () => flowRunsStarted(emulator);
  const flowRunState = (stack: string) =>
    (JSON.parse(readFileSync(stateFile(stack), "utf8")).resources as Array<{ type: string; id: string; outputs: Record<string, unknown> }>).find((r) =>
      r.type.endsWith(":FlowRun"),
    )!;
  /** What the program and the provider host said: the provider host's log lines reach the engine as its output. */
  const said = (result: EngineResult) => [...result.logs.map((entry) => entry.message), ...result.diagnostics].join("\n");

  it("runs the flow on the first up and waits for it, not on a no-op up, and again when the release changes", async () => {
    rmSync(stateFile("dev"), { force: true });
    const first = await engine("up", "dev", { "crm-flow-run:release": "1.0" });
    assert.equal(first.exitCode, 0, first.diagnostics.join("\n"));
    assert.equal(await runsStarted(), 1);
    const progress = said(first);
    assert.match(progress, /chat\.FlowRun of flow 2f1c6a8e-3b7d-4c1e-9a2f-5d8e7c6b4a31: execution [0-9a-f-]{36} RUNNING, [01] of 2 contacts done/);
    assert.match(progress, /execution [0-9a-f-]{36} COMPLETED, 2 of 2 contacts done \(2 completed\)/);
    const run = flowRunState("dev");
    assert.deepEqual([run.outputs.status, run.outputs.statusReason], ["COMPLETED", null]);
    assert.match(String(run.outputs.finishedOn), /^\d{4}-\d{2}-\d{2}T/);

    const before = await requestCount(emulator);
    const same = await upWithoutPreview("dev", { "crm-flow-run:release": "1.0" });
    assert.equal(same.exitCode, 0, same.lines.join("\n"));
    assert.equal(same.steps.same, 2);
    assert.equal((await requestCount(emulator)) - before, 0);

    const refresh = await engine("refresh", "dev", { "crm-flow-run:release": "1.0" }, true);
    assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));

    const next = await upWithoutPreview("dev", { "crm-flow-run:release": "1.1" });
    assert.equal(next.exitCode, 0, next.lines.join("\n"));
    assert.equal(next.steps.replace, 1);
    assert.equal(await runsStarted(), 2);

    const destroy = await engine("destroy", "dev", { "crm-flow-run:release": "1.1" });
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.equal(await runsStarted(), 2);
  });

  it("fails the up with the service's reason when the run fails, keeps the run in the state, and never runs it again", async () => {
    rmSync(stateFile("failing"), { force: true });
    const config = { "crm-flow-run:release": "1.0", "crm-flow-run:flowId": failingFlow.id };
    const before = await runsStarted();
    const up = await upWithoutPreview("failing", config);
    assert.equal(up.exitCode, 1);
    assert.match(up.diagnostics.join("\n"), /execution [0-9a-f-]{36} ended FAILED: The flow's webhook step answered 500 Internal Server Error; it is recorded and not run again/);
    assert.equal(up.diagnostics.join("\n").split("ended FAILED").length - 1, 1, "the reason is printed once");
    assert.match(said(up), /execution [0-9a-f-]{36} FAILED, 2 of 2 contacts done \(2 failed\)/);
    const run = flowRunState("failing");
    assert.deepEqual([run.id, run.outputs.status, run.outputs.statusReason], [run.outputs.executionId, "FAILED", failingFlow.failureReason]);

    const again = await upWithoutPreview("failing", config);
    assert.equal(again.exitCode, 0, again.diagnostics.join("\n"));
    assert.equal((await runsStarted()) - before, 1);
    assert.equal((await engine("destroy", "failing", config)).exitCode, 0);
  });
});
