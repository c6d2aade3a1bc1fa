// Two resource options on the pulumi CLI, one stack of test/lifecycle/programs/protect-and-aliases:
// accounts, each with a value of a custom field, a note and an address, the first account
// protected; and an account whose resource is renamed with `aliases`.
// - aliases: the renamed resource keeps its object: no replace, no request.
// - protect: `pulumi destroy` stops at its preview, before deleting anything; with --skip-preview
//   it deletes every other resource (the protected account's own value and note among them) and
//   then fails on the protected account. What sdk-docs/resource-options.md tells users then works:
//   `pulumi destroy --exclude-protected` deletes all but the protected account; `pulumi state
//   unprotect` and a destroy delete it.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { emulatorCall, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { type CliResult, CliStack, nameOf, stepsOf } from "../../scripts/harness/pulumi-cli";

const accounts = 4;

describe("protect and aliases, on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    const program = installProgram(join(__dirname, "programs", "protect-and-aliases"), "lifecycle-protect-and-aliases", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", {
      config: { "crm:apiUrl": emulator.crmUrl, "crm:requestsPerSecond": "0", "protect-and-aliases:accounts": String(accounts) },
      secrets: { "crm:apiToken": emulator.apiToken },
    });
  });
  after(async () => {
    stack?.remove();
    await emulator?.close();
  });

  const output = (result: CliResult) => result.lines.join("\n");
  /** What the service holds, by collection: the names of accounts, the counts of the rest. */
  const held = async () => {
    const list = async (path: string, member: string) =>
      (await emulatorCall(emulator, "GET", `/api/3${path}?limit=100`)).body[member] as Array<Record<string, any>>;
    return {
      accounts: (await list("/accounts", "accounts")).map((account) => account.name as string).sort(),
      values: (await list("/accountCustomFieldData", "accountCustomFieldData")).length,
      notes: (await list("/notes", "notes")).length,
      addresses: (await list("/addresses", "addresses")).length,
      fields: (await list("/accountCustomFieldMeta", "accountCustomFieldMeta")).length,
    };
  };
  const customers = Array.from({ length: accounts }, (_, n) => `Customer ${n + 1}`);
  const everything = { accounts: [...customers, "Partner Co"].sort(), values: accounts, notes: accounts, addresses: accounts, fields: 1 };
  const onlyTheProtectedAccount = { accounts: ["Customer 1"], values: 0, notes: 0, addresses: 0, fields: 0 };
  const protectedUrn = () => stack.resources().find((resource) => resource.protect)!.urn;

  it("up makes every object", async () => {
    const up = await stack.deploy();
    assert.equal(up.steps.create, 4 * accounts + 3); // and the field, the partner account, the stack
    assert.deepEqual(await held(), everything);
    assert.equal(nameOf(protectedUrn()), "account-1");
  });

  it("a resource renamed with aliases keeps its object: no replace, no request, up and its preview", async () => {
    const id = stack.resources().find((resource) => nameOf(resource.urn) === "reseller")!.id;
    await stack.setConfig({ "protect-and-aliases:renamed": "true" });
    const before = await requestCount(emulator);
    const up = await stack.up();
    assert.equal(up.exitCode, 0, output(up));
    assert.equal(up.changes, false, output(up));
    assert.equal((await requestCount(emulator)) - before, 0);
    assert.deepEqual(
      new Set(
        stepsOf(up)
          .filter((step) => nameOf(step.urn) === "partner")
          .map((step) => step.op),
      ),
      new Set(["same"]),
    );
    const partner = stack.resources().find((resource) => nameOf(resource.urn) === "partner")!;
    assert.equal(partner.id, id);
    assert.ok(!stack.resources().some((resource) => nameOf(resource.urn) === "reseller"));
  });

  it("destroy of a stack holding a protected account stops at its preview, naming the account and the way out, before any request", async () => {
    const before = await requestCount(emulator);
    const destroy = await stack.destroy();
    assert.equal(destroy.exitCode, 1, output(destroy));
    assert.match(
      destroy.stdout,
      /error: Preview failed: resource "urn:\S+::account-1" cannot be deleted\s+because it is protected\. To unprotect the resource, either remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\s+`pulumi state unprotect 'urn:\S+::account-1'`/,
    );
    assert.doesNotMatch(destroy.stdout, /^Destroying \(/m, "the destroy must not start after a failed preview");
    assert.equal(await requestCount(emulator), before);
    assert.deepEqual(await held(), everything);
  });

  it("destroy --exclude-protected deletes every other object, the protected account's own value and note included", async () => {
    const destroy = await stack.destroy("--exclude-protected", "--skip-preview");
    assert.equal(destroy.exitCode, 0, output(destroy));
    assert.equal(destroy.steps.delete, 4 * accounts + 1);
    assert.deepEqual(await held(), onlyTheProtectedAccount);
    assert.deepEqual(
      stack
        .resources()
        .map((resource) => nameOf(resource.urn))
        .sort(),
      ["account-1", "default", "protect-and-aliases-dev"],
    );
  });

  it("destroy --skip-preview deletes every other object, then fails on the protected account", async () => {
    await stack.deploy();
    assert.deepEqual(await held(), everything);
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 1, output(destroy));
    assert.match(destroy.stdout, /error: resource "urn:\S+::account-1" cannot be deleted\s+because it is protected/);
    assert.deepEqual(await held(), onlyTheProtectedAccount);
  });

  it("pulumi state unprotect, then destroy, deletes the protected account", async () => {
    const unprotect = await stack.succeed(["state", "unprotect", protectedUrn(), "--yes"]);
    assert.match(unprotect.stdout, /1 resources unprotected/);
    const destroy = await stack.destroy("--skip-preview");
    assert.equal(destroy.exitCode, 0, output(destroy));
    assert.deepEqual(await held(), { accounts: [], values: 0, notes: 0, addresses: 0, fields: 0 });
    assert.deepEqual(stack.resources(), []);
  });
});
