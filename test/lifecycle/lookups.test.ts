// The lookups in a program: examples/lookups, the packed package installed, run by
// the test engine against the emulator, in preview and in up. The settings come from
// the program's own stack config: no provider host configures the program's process.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { EngineOptions, EngineResult, runEngine } from "../../engine/engine";
import { startEmulator } from "../../emulator";
import { installExample, installProgram } from "../support/packed-program";
import { emulatorStats, RunningEmulator, stackOnEmulator } from "../support/emulator";

describe("lookups in a program, through the test engine", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let program: string;
  let stateFile: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installExample("lookups", "lifecycle-lookups", { typeCheck: "once" });
    stateFile = join(program, "state.json");
    rmSync(stateFile, { force: true });
  });
  after(async () => emulator?.close());

  const engine = (command: EngineOptions["command"], config: Record<string, string> = {}, skipPreview = false) =>
    runEngine({
      command,
      cwd: program,
      stack: "dev",
      stateFile,
      config: { "crm:apiUrl": emulator.crmUrl, ...config },
      secrets: { "crm:apiToken": emulator.apiToken },
      skipPreview,
    });
  const found = /found automation "Automation 07" \(id 7\) and campaign "Campaign 001" \(id 1\)/;
  const logged = (result: EngineResult) => result.logs.map((entry) => entry.message).join("\n");
  const lookupRequests = async () => {
    const { byRoute } = await emulatorStats(emulator);
    return (byRoute["GET /api/3/automations"] ?? 0) + (byRoute["GET /api/3/campaigns"] ?? 0);
  };

  it("looks up in preview, both forms, with the program's stack config", async () => {
    const before = await lookupRequests();
    const preview = await engine("preview");
    assert.equal(preview.exitCode, 0, preview.diagnostics.join("\n"));
    assert.match(logged(preview), found);
    // The automation is the 7th of 30 (one page); the campaign by name walks all 260 (three pages).
    assert.equal((await lookupRequests()) - before, 1 + 3);
  });

  it("exports what it found on up", async () => {
    // The update alone (`up --skip-preview`): the test before ran this fresh stack's preview, and
    // what is logged here is then the update's own lookup, not the preview's.
    const up = await engine("up", {}, true);
    assert.equal(up.exitCode, 0, up.diagnostics.join("\n"));
    assert.match(logged(up), found);
    const stack = (JSON.parse(readFileSync(stateFile, "utf8")).resources as Array<{ type: string; outputs: Record<string, unknown> }>).find(
      (resource) => resource.type === "pulumi:pulumi:Stack",
    )!;
    assert.equal(stack.outputs.automationId, "7");
    assert.equal(stack.outputs.automationStatus, 1);
    assert.equal(stack.outputs.campaignId, "1");
    assert.equal(stack.outputs.campaignStatus, "completed");
    assert.match(String(stack.outputs.campaignSentOn), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
  });

  // The Promise form's failure.
  it("fails the preview with what was not found, and never shows the API token", async () => {
    const preview = await engine("preview", { "crm-lookups:campaignName": "No such campaign" });
    assert.equal(preview.exitCode, 1);
    const output = preview.diagnostics.join("\n");
    assert.match(output, /crm\.getCampaign: no campaign has the name "No such campaign"\./);
    assertNoStackFrames(output);
    assert.doesNotMatch(output, new RegExp(emulator.apiToken));
  });
});

// The Pulumi program runner prints an unhandled error with util.inspect(err, { colors: true }):
// on Node.js versions with nodejs/node#64011, a frame such as `.../node_modules/@pulumi/output.ts:516:25`
// (in every failed lookup's async frames) made that loop until the heap ran out, minutes and
// about 4 GB before the error showed, after which it showed with our frames. A lookup's error
// carries its message only. Wall time and memory: bench/lookups.ts.
describe("a failing lookup beside 30 resources, through the test engine", function () {
  this.timeout(120_000);
  let emulator: RunningEmulator;
  let program: string;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    program = installProgram(join(__dirname, "programs", "accounts-and-lookups"), "lifecycle-failing-lookup", { typeCheck: "once" });
  });
  after(async () => emulator?.close());

  it("fails the preview with the lookup's message, not a stack", async () => {
    const preview = await runEngine({
      command: "preview",
      cwd: program,
      stack: "dev",
      stateFile: join(program, "state.json"),
      ...stackOnEmulator(emulator, { "accounts-and-lookups:count": "30", "accounts-and-lookups:campaignName": "No such campaign" }),
    });
    assert.equal(preview.exitCode, 1);
    const output = preview.diagnostics.join("\n");
    assert.match(output, /crm\.getCampaign: no campaign has the name "No such campaign"\./);
    assertNoStackFrames(output);
  });
});

function assertNoStackFrames(output: string): void {
  assert.doesNotMatch(output, /^\s+at .*node_modules/m, "the error shows our stack frames");
}
