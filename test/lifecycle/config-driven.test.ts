// What a new user hit on a config-driven program, on the real CLI (test/lifecycle/programs/
// config-driven, one scenario per stack): a lookup of an account the same program creates, a
// value outside its field's options, a blank required text, and the errors of a refused key.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { CliStack } from "../../scripts/harness/pulumi-cli";

describe("a config-driven program's scenarios on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let program: string;
  const stacks: CliStack[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    program = installProgram(join(__dirname, "programs", "config-driven"), "lifecycle-config-driven", { typeCheck: "once" });
  });
  after(async () => {
    await emulator?.close();
    for (const stack of stacks) stack.remove();
  });

  const stackFor = async (name: string, config: Record<string, string>, apiToken = emulator.apiToken) => {
    const stack = await CliStack.create(program, name, { config: { "crm:apiUrl": emulator.crmUrl, ...config }, secrets: { "crm:apiToken": apiToken } });
    stacks.push(stack);
    return stack;
  };
  const accountReads = async () => (await emulatorStats(emulator)).byRoute["GET /api/3/accounts"] ?? 0;

  describe("a lookup by the name of an account the same program creates", () => {
    let stack: CliStack;
    before(async () => (stack = await stackFor("lookup", { "config-driven:scenario": "lookup", "config-driven:accountName": "Acme Lookups" })));

    it("passes the first preview, unknown and without a request, where it failed with 'no account has the name'", async () => {
      const reads = await accountReads();
      const preview = await stack.preview();
      assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
      assert.doesNotMatch(preview.stdout + preview.stderr, /no account has the name/);
      assert.equal((await accountReads()) - reads, 0, "the preview looked the account up before it existed");
    });

    it("resolves in the up, once the account exists: the account found is the one created, and depends on it", async () => {
      const up = await stack.up();
      assert.equal(up.exitCode, 0, up.lines.join("\n"));
      const { result } = await stack.outputs();
      assert.equal(result.foundId, result.acmeId);
      assert.deepEqual([result.foundUrl, result.listedCount], ["https://acme.example", 1]);
      const resources = stack.resources() as Array<{ urn: string; dependencies?: string[] }>;
      const acme = resources.find((r) => r.urn.endsWith("::acme"))!;
      const note = resources.find((r) => r.urn.endsWith("::note"))!;
      assert.ok(note.dependencies?.includes(acme.urn), `the note does not depend on the account: ${JSON.stringify(note.dependencies)}`);
    });

    it("a second preview, with the account in the state, looks it up and changes nothing", async () => {
      const preview = await stack.preview("--expect-no-changes");
      assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
      await stack.destroy("--skip-preview");
    });
  });

  it("a dropdown value outside the field's options fails the preview, naming the options, before any request", async () => {
    const stack = await stackFor("options", { "config-driven:scenario": "options" });
    const before = await requestCount(emulator);
    const preview = await stack.preview();
    assert.notEqual(preview.exitCode, 0);
    const output = preview.stdout + preview.stderr;
    assert.match(output, /crm\.AccountCustomFieldValue[^\n]*fieldValue must be among the field's options \("Gold", "Silver", "Bronze"\); "Platinum" is not/);
    assert.equal((await requestCount(emulator)) - before, 0);
  });

  it("a calendar feed title of spaces fails the preview with 'must not be blank', before any request", async () => {
    const stack = await stackFor("blank", { "config-driven:scenario": "blank" });
    const before = await requestCount(emulator);
    const preview = await stack.preview();
    assert.notEqual(preview.exitCode, 0);
    assert.match(preview.stdout + preview.stderr, /crm\.CalendarFeed[^\n]*title must not be blank/);
    assert.equal((await requestCount(emulator)) - before, 0);
  });

  it("a refused key: each account's error is said once, without colour codes, and a short key mangles nothing", async () => {
    // A one-character key: redacting it everywhere would cut "Acme Lookups 1" and 127.0.0.1 apart.
    const stack = await stackFor("refused", { "config-driven:scenario": "accounts", "config-driven:count": "3" }, "1");
    const up = await stack.run(["up", "--yes", "--skip-preview"]);
    assert.notEqual(up.exitCode, 0);
    const output = up.stdout + up.stderr;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal colour codes piped output must not hold
    assert.doesNotMatch(output, /\x1b\[/, "colour codes in piped output");
    assert.doesNotMatch(output, /\[redacted\]/, "a one-character key was redacted inside other text");
    // The CLI's progress lines repeat a resource's latest message as it goes; its summary of
    // diagnostics is where each error is said, once per resource.
    // The CLI stops starting steps after the first failure, so how many accounts were tried varies.
    const diagnostics = up.stdout.slice(up.stdout.indexOf("Diagnostics:")).split("\n");
    const refused = [1, 2, 3].filter((n) => diagnostics.some((line) => line.includes(`(account-${n}):`)));
    assert.ok(refused.length > 0, diagnostics.join("\n"));
    for (const n of refused) {
      const said = diagnostics.filter((line) => line.includes(`error: crm.Account "Acme Lookups ${n}": the service answered 403`));
      assert.equal(said.length, 1, `the refusal of account ${n} is said ${said.length} times:\n${diagnostics.join("\n")}`);
    }
  });
});
