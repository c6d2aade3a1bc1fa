// The lookups in a program on the real `pulumi` CLI: examples/lookups, the packed package
// installed, against the emulator, in preview and in up, on the newest Node.js 26. The settings
// come from the program's own stack config: no provider host configures the program's process.
// Then, on Node.js 22.23.3, what a user of a release with nodejs/node#64011
// (provider/node-version.ts) sees: pulumi-crm's warning, and what a failing lookup and a mistake
// of the program's own code after a lookup cost before their message shows. The Pulumi program
// runner prints an unhandled error with util.inspect(err, { colors: true }), which on those
// releases loops on a frame such as `.../node_modules/@pulumi/output.ts:516:25` for minutes and
// gigabytes.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { measure, peakMiB, load } from "../../bench/processes";
import { nodeLoopWarning } from "../../provider/node-version";
import { inspectLoopNodeVersion, newestNodeVersion } from "../../scripts/toolchain";
import { installExample, installProgram } from "../../scripts/harness/packed-program";
import { emulatorCall, emulatorStats, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { descendantsOf } from "../../scripts/harness/process-tree";
import { type CliResult, CliStack, diagnostics } from "../../scripts/harness/pulumi-cli";

/** What `pulumi preview` exits with when the program fails. */
const PREVIEW_FAILED = 1;

describe(`lookups in a program on the pulumi CLI (Node.js ${newestNodeVersion})`, function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
    const program = installExample("lookups", "lifecycle-lookups", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", { ...stackOnEmulator(emulator), node: newestNodeVersion });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  const found = /found automation "Automation 07" \(id 7\) and campaign "Campaign 001" \(id 1\)/;
  const lookupRequests = async () => {
    const { byRoute } = await emulatorStats(emulator);
    return (byRoute["GET /api/3/automations"] ?? 0) + (byRoute["GET /api/3/campaigns"] ?? 0);
  };

  it("looks up in preview, both forms, with the program's stack config", async () => {
    const before = await lookupRequests();
    const preview = await stack.preview();
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.match(diagnostics(preview, "info"), found);
    // The automation is the 7th of 30 (one page); the campaign by name and the campaigns sent walk all 260 (three pages), once for both.
    assert.equal((await lookupRequests()) - before, 1 + 3);
  });

  it("exports what it found on up", async () => {
    // The update alone (`up --skip-preview`): the test before ran this fresh stack's preview, and
    // what is logged here is then the update's own lookup, not the preview's.
    const up = await stack.deploy();
    assert.match(diagnostics(up, "info"), found);
    const outputs = await stack.outputs();
    assert.equal(outputs.automationId, "7");
    assert.equal(outputs.automationStatus, 1);
    assert.equal(outputs.campaignId, "1");
    assert.equal(outputs.campaignStatus, "completed");
    assert.match(String(outputs.campaignSentOn), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);
    assert.ok(Number(outputs.campaignsSent) > 0, `campaignsSent: ${outputs.campaignsSent}`);
  });

  it("warns once of each misspelt setting, naming the known ones closest first", async () => {
    await stack.setConfig({ "crm:requestPerSecond": "2", "crm:apiurl": emulator.crmUrl });
    const preview = await stack.preview();
    await stack.run(["config", "rm", "crm:requestPerSecond"]);
    await stack.run(["config", "rm", "crm:apiurl"]);
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    const warnings = diagnostics(preview, "warning").split("\n");
    const about = (key: string) => warnings.filter((line) => line.includes(`pulumi-crm: ${key} is not a setting of pulumi-crm`));
    assert.deepEqual(about("crm:requestPerSecond"), [
      "pulumi-crm: crm:requestPerSecond is not a setting of pulumi-crm and is ignored; its settings of crm are, closest first: crm:requestsPerSecond, crm:apiToken, crm:apiUrl.",
    ]);
    assert.equal(about("crm:apiurl").length, 1, warnings.join("\n"));
  });

  // The Promise form's failure.
  it("fails the preview with what was not found, and never shows the API token", async () => {
    await stack.setConfig({ "crm-lookups:campaignName": "No such campaign" });
    const preview = await stack.preview();
    assert.equal(preview.exitCode, PREVIEW_FAILED, preview.lines.join("\n"));
    const errors = diagnostics(preview, "error");
    assert.match(errors, /crm\.getCampaign: no campaign has the name "No such campaign"\./);
    assertNoStackFrames(errors);
    assert.doesNotMatch(`${preview.stdout}${preview.stderr}`, new RegExp(emulator.apiToken));
  });
});

// Time and memory, printed, never asserted: the machine is shared. A run still going after
// `giveUpAfterMs` has its program killed, so that the loop cannot hold the suite.
describe(`pulumi-crm's warning, and the time and memory until a program's error shows, on the pulumi CLI (Node.js ${inspectLoopNodeVersion}, with the loop)`, function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  const stacks: CliStack[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5 });
  });
  after(async () => {
    await emulator?.close();
    for (const stack of stacks) stack.remove();
  });

  const stackOf = async (program: string, config: Record<string, string>) => {
    const stack = await CliStack.create(program, "dev", { ...stackOnEmulator(emulator, config), node: inspectLoopNodeVersion });
    stacks.push(stack);
    return stack;
  };
  const warning = nodeLoopWarning(`v${inspectLoopNodeVersion}`);
  /**
   * How many times the run's output shows pulumi-crm's warning as a message: the CLI shows a
   * program's message at the end of its resource's progress line and again, alone on its line,
   * under "Diagnostics:", once per program run that wrote it (the preview of an `up` and its
   * update each have their own); counted there. The event log of an `up` has its update's alone.
   */
  const warnings = (result: CliResult) => result.lines.filter((line) => line.trim() === warning).length;

  it("an up warns once, in its update: the preview before it, like a preview that succeeds, does not", async () => {
    const program = installProgram(join(__dirname, "programs", "accounts-and-lookups"), "lifecycle-node-warning", { typeCheck: "once" });
    const stack = await stackOf(program, { "accounts-and-lookups:count": "1", "accounts-and-lookups:lookups": "0" });
    const preview = await stack.preview();
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.equal(warnings(preview), 0, preview.lines.join("\n"));
    const up = await stack.up();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.steps.create, 2, up.lines.join("\n"));
    assert.equal(warnings(up), 1, up.lines.join("\n"));
  });

  it("a failing lookup beside 30 resources fails the preview with the lookup's message, naming what was looked up, not a stack", async () => {
    const program = installProgram(join(__dirname, "programs", "accounts-and-lookups"), "lifecycle-failing-lookup", { typeCheck: "once" });
    const stack = await stackOf(program, { "accounts-and-lookups:count": "30", "accounts-and-lookups:campaignName": "No such campaign" });
    const message = /crm\.getCampaign: no campaign has the name "No such campaign"\./;
    const { preview, messageShown } = await timedPreview(stack, message, "a failing lookup beside 30 accounts");
    assert.ok(messageShown, preview.lines.join("\n"));
    assert.equal(preview.exitCode, PREVIEW_FAILED, preview.lines.join("\n"));
    const errors = diagnostics(preview, "error");
    assert.match(errors, message);
    assertNoStackFrames(errors);
  });

  // A CI job whose secret was not passed: every lookup fails on the setting, in the program's own
  // process, where the program runner prints what it rejects with. On a Node.js with the loop an
  // error with frames took 144 to 175 s and 3.9 GB there before its message showed.
  it("a missing crm:apiToken fails the preview of a program with lookups with the setting's message, without frames, the program staying small", async () => {
    const program = installProgram(join(__dirname, "programs", "accounts-and-lookups"), "lifecycle-missing-token", { typeCheck: "once" });
    const stack = await stackOf(program, { "accounts-and-lookups:count": "3", "accounts-and-lookups:lookups": "4" });
    await stack.run(["config", "rm", "crm:apiToken"]);
    const message = /crm\.getCampaign: no CRM API token is configured; run `pulumi config set --secret crm:apiToken <CRM API token>`/;
    const { preview, messageShown, programPeakMiB } = await timedPreview(stack, message, "a missing crm:apiToken beside 4 lookups");
    assert.ok(messageShown, preview.lines.join("\n"));
    assert.equal(preview.exitCode, PREVIEW_FAILED, preview.lines.join("\n"));
    assertNoStackFrames(diagnostics(preview, "error"));
    // The loop grows the program by gigabytes; a program that printed the message is some 200 MiB.
    assert.ok(programPeakMiB !== undefined && programPeakMiB < 500, `the program's peak RSS was ${programPeakMiB} MiB`);
  });

  describe("a mistake of the program's own code after a lookup", () => {
    let stack: CliStack;
    before(async () => {
      await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme Inc" } });
      const program = installProgram(join(__dirname, "programs", "own-mistake"), "lifecycle-own-mistake", { typeCheck: "once" });
      stack = await stackOf(program, { "own-mistake:accountName": "Acme Inc" });
    });

    for (const [mistake, where] of [
      ["after-await", "after an awaited crm.getAccount"],
      ["in-apply", "inside an apply on crm.getAccountOutput"],
    ]) {
      it(`thrown ${where} fails the preview with pulumi-crm's warning of the loop, once, before the run is given up on`, async () => {
        await stack.setConfig({ "own-mistake:mistake": mistake });
        // The message takes minutes and gigabytes (README.md): given up on after 30 s, the figures
        // printed; the warning, written as the error reaches the runner, is what the author sees in time.
        const { preview, messageShown } = await timedPreview(stack, /my own mistake/, `the program's own error ${where}`, 30_000);
        assert.equal(preview.exitCode, PREVIEW_FAILED, preview.lines.join("\n"));
        assert.equal(warnings(preview), 1, preview.lines.join("\n"));
        // The program's code, so its own frames are what helps: index.ts, where it threw.
        if (messageShown) assert.match(diagnostics(preview, "error"), /Error: my own mistake\n\s+at .*index\.ts:\d+/);
      });
    }

    it("with --stack-trace-limit=0 in NODE_OPTIONS, the same mistake's message shows at once on any Node.js: the remedy that patches nothing", async () => {
      await stack.setConfig({ "own-mistake:mistake": "in-apply" });
      // Without frames, util.inspect has no node_modules path to loop on; the message loses its frames.
      const { preview, messageShown } = await timedPreview(stack, /my own mistake/, "the program's own error inside an apply, --stack-trace-limit=0", 60_000, {
        NODE_OPTIONS: "--stack-trace-limit=0",
      });
      assert.equal(preview.exitCode, PREVIEW_FAILED, preview.lines.join("\n"));
      assert.ok(messageShown, preview.lines.join("\n"));
      assert.match(diagnostics(preview, "error"), /Error: my own mistake/);
    });
  });
});

/**
 * `pulumi preview`, timed from its start until `message` shows on the CLI's output, with the peak
 * RSS of the program process (`node .../cmd/run`, a grandchild: pulumi -> language host -> node),
 * printed under `title`. After `giveUpAfterMs` the program is killed, and the CLI reports it failed.
 */
async function timedPreview(
  stack: CliStack,
  message: RegExp,
  title: string,
  giveUpAfterMs = 120_000,
  env: NodeJS.ProcessEnv = {},
): Promise<{ preview: CliResult; messageShown: boolean; programPeakMiB?: number }> {
  let started = Date.now();
  let messageSeconds: number | undefined;
  let killed = false;
  let giveUp: NodeJS.Timeout | undefined;
  const { result, processes, seconds } = await measure(() =>
    stack.run(["preview"], {
      env,
      onStarted: (child) => {
        started = Date.now();
        let shown = "";
        const watch = (chunk: Buffer) => {
          shown += chunk;
          if (messageSeconds === undefined && message.test(shown)) messageSeconds = (Date.now() - started) / 1000;
        };
        child.stdout!.on("data", watch);
        child.stderr!.on("data", watch);
        giveUp = setTimeout(() => {
          for (const { pid } of descendantsOf(child.pid!).filter(({ command }) => /\/cmd\/run(\/index\.js)?( |$)/.test(command))) {
            killed = true;
            process.kill(pid, "SIGKILL");
          }
        }, giveUpAfterMs);
      },
    }),
  ).finally(() => clearTimeout(giveUp));
  const programPeakMiB = peakMiB(processes, "program");
  const shownAfter = messageSeconds === undefined ? "the message did not show" : `the message after ${messageSeconds.toFixed(1)} s`;
  console.log(
    `      ${title}: ${shownAfter}, the run ${seconds.toFixed(1)} s${killed ? ` (the program killed after ${giveUpAfterMs / 1000} s)` : ""}, ` +
      `the program's peak RSS ${programPeakMiB?.toFixed(0) ?? "not measured"} MiB; ${load()}`,
  );
  return { preview: result, messageShown: messageSeconds !== undefined, programPeakMiB };
}

function assertNoStackFrames(output: string): void {
  assert.doesNotMatch(output, /^\s+at .*node_modules/m, "the error shows our stack frames");
}
