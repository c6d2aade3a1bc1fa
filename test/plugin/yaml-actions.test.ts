// Through the native plugins on the real CLI (a Pulumi YAML program, its default providers
// configured by the stack's settings, the API key given as plain config): an action's run that
// did not finish is carried on by the next up, a branding's fields are put back on destroy,
// and the key is nowhere in the state. The program is written here: its ContactSync holds 300
// contacts, more than a batch.

import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startEmulator } from "../../emulator";
import { BUILT_IN_FLOWS } from "../../emulator/src/chat";
import { emulatorCallWhenAdmitted, emulatorRead, type RunningEmulator } from "../../scripts/harness/emulator";
import { installYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";

const contacts = Array.from({ length: 300 }, (_, n) => `        - email: person${n}@example.com`);
const program = (flowId: string) =>
  [
    "name: yaml-actions",
    "runtime: yaml",
    "description: A Pulumi YAML program of the actions and the branding on the native plugins (test program, written by test/plugin/yaml-actions.test.ts).",
    "resources:",
    "  branding:",
    "    type: crm:Branding",
    "    properties:",
    "      siteName: Ours",
    "  sync:",
    "    type: crm:ContactSync",
    "    properties:",
    "      contacts:",
    ...contacts,
    "  welcome:",
    "    type: chat:FlowRun",
    "    properties:",
    `      flowId: ${flowId}`,
    "      contacts:",
    "        - phone: '+15550100'",
    "      waitForCompletion: true",
    "      timeoutSeconds: 1",
    "outputs:",
    "  syncPending: ${sync.pending}",
    "  syncCreated: ${sync.created}",
    "  runStatus: ${welcome.status}",
    "  runId: ${welcome.executionId}",
    "",
  ].join("\n");

/** The files of a folder, at any depth, that hold `text`. */
const filesHolding = (folder: string, text: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && readFileSync(join(entry.parentPath, entry.name), "utf8").includes(text))
    .map((entry) => join(entry.parentPath, entry.name));

describe("actions and the branding on the native plugins, on the real CLI", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  // A run outlasts the program's 1 s wait: the first up records it unfinished.
  const runMs = 4_000;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 5, executionDurationMs: runMs });
    const { program: folder } = await installYamlProgram(undefined, "plugin-yaml-actions", { chat: true });
    writeFileSync(join(folder, "Pulumi.yaml"), program(BUILT_IN_FLOWS[0].id) + readFileSync(join(folder, "Pulumi.yaml"), "utf8"));
    await emulatorCallWhenAdmitted(emulator, "PUT", "/api/3/brandings/1", { branding: { siteName: "Theirs" } });
    // The key as plain config, a common slip: `pulumi config set crm:apiToken <key>` without --secret.
    stack = await CliStack.create(folder, "dev", {
      config: {
        "crm:apiUrl": emulator.crmUrl,
        "crm:apiToken": emulator.apiToken,
        "chat:apiUrl": emulator.chatUrl,
        "chat:apiToken": emulator.apiToken,
        "chat:channel": "chat",
      },
    });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("records a sync stopped at the contact limit and a run still going as unfinished", async () => {
    const total = (await emulatorRead(emulator, "/contacts?limit=1")).meta.total;
    await fetch(`${emulator.crmUrl}/__emulator/limits`, { method: "POST", body: JSON.stringify({ contacts: Number(total) + 260 }) });
    // Both go ahead, whichever fails first: the engine starts no new step after a failure otherwise.
    const up = await stack.up("--skip-preview", "--continue-on-error");
    assert.notEqual(up.exitCode, 0, up.lines.join("\n"));
    const text = up.lines.join("\n");
    assert.match(text, /250 of 300 rows were queued before it stopped/);
    assert.match(text, /is still RUNNING after 1 s/);
  });

  it("the next up, after a refresh, carries both on: the rest of the contacts sent, the same run waited for", async () => {
    await fetch(`${emulator.crmUrl}/__emulator/limits`, { method: "POST", body: JSON.stringify({ contacts: 100_000 }) });
    // A refresh records what the service holds, and ends the resources' failed-creation marks: only the diff can carry them on now.
    assert.equal((await stack.refresh("--skip-preview")).exitCode, 0);
    // The failed up recorded no outputs: the run is read from its resource's state.
    const runId = stack.resources().find((resource) => resource.type === "chat:index:FlowRun")!.outputs!.executionId;
    await new Promise((resolve) => setTimeout(resolve, runMs));
    const up = await stack.up("--skip-preview");
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.steps.update, 2, up.lines.join("\n"));
    const outputs = await stack.outputs();
    assert.deepEqual([outputs.syncPending, outputs.syncCreated, outputs.runStatus, outputs.runId], [0, 300, "COMPLETED", runId]);
  });

  it("keeps the API key given as plain config out of the state: nowhere in the export or the backend's files", async () => {
    const exported = JSON.stringify(await stack.exported());
    assert.ok(exported.length > 1000);
    assert.equal(exported.split(emulator.apiToken).length - 1, 0, "the exported state");
    const backend = dirname(dirname(dirname(stack.stateFile())));
    // The CLI's update history records the stack config as the user gave it, its own doing: the key is nowhere else.
    const holding = filesHolding(backend, emulator.apiToken);
    const history = holding.filter((file) => file.endsWith(".history.json"));
    assert.deepEqual(holding, history, "files of the backend but the update history");
    for (const file of history) {
      const { config, ...rest } = JSON.parse(readFileSync(file, "utf8"));
      assert.equal(config["crm:apiToken"], emulator.apiToken);
      assert.equal(JSON.stringify(rest).includes(emulator.apiToken), false, `${file} beside its config`);
    }
  });

  it("destroy puts the branding's field back as found", async () => {
    assert.equal((await emulatorRead(emulator, "/brandings/1")).branding.siteName, "Ours");
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
    assert.equal((await emulatorRead(emulator, "/brandings/1")).branding.siteName, "Theirs");
  });
});
