// chat.FlowRun end to end: the packed package in a program, run by the test
// engine against the emulator's chat service.

import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { runEngine } from "../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample } from "../support/packed-program";
import { flowRunsStarted, requestCount, RunningEmulator } from "../support/emulator";

describe("chat.FlowRun lifecycle through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installExample("flow-run", "lifecycle-flow-run");
    stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
  });
  after(async () => emulator?.close());

  const engine = (command: "up" | "refresh" | "destroy", release: string, expectNoChanges = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      config: { "chat:apiUrl": emulator.chatUrl, "crm-flow-run:release": release },
      secrets: { "chat:apiToken": emulator.apiToken },
      expectNoChanges,
    });
  const runsStarted = () => flowRunsStarted(emulator);

  it("runs the flow on the first up, not on a no-op up, and again when the release changes", async () => {
    const first = await engine("up", "1.0");
    assert.equal(first.exitCode, 0, first.lines.join("\n"));
    assert.equal(await runsStarted(), 1);

    const before = await requestCount(emulator);
    const same = await engine("up", "1.0");
    assert.equal(same.exitCode, 0, same.lines.join("\n"));
    assert.equal(same.steps.same, 2);
    assert.equal((await requestCount(emulator)) - before, 0);

    const refresh = await engine("refresh", "1.0", true);
    assert.equal(refresh.exitCode, 0, refresh.lines.join("\n"));

    const next = await engine("up", "1.1");
    assert.equal(next.exitCode, 0, next.lines.join("\n"));
    assert.equal(next.steps.replace, 1);
    assert.equal(await runsStarted(), 2);

    const destroy = await engine("destroy", "1.1");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.equal(await runsStarted(), 2);
  });
});
