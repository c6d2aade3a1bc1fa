// A drift check against a service that is down (issue 36): a stack of accounts deployed on the
// real `pulumi` CLI, the emulator stopped, then `pulumi refresh --preview-only
// --expect-no-changes`. Once the address refused a connection, the provider host fails the
// other reads at once, each in its resource's name; no sentence is repeated per retry.

import assert from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import { CliStack, nameOf, resourceErrors } from "../../scripts/harness/pulumi-cli";

const accounts = 40;

describe("a drift check against a service that is down, on the pulumi CLI", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;
  let stack: CliStack;

  before(async () => {
    emulator = await startEmulator({ port: 0 });
    const program = installProgram(join(__dirname, "programs", "many-accounts"), "lifecycle-down-service", { typeCheck: "once" });
    // At the service's own limit, 5 requests per second, where retries of a refused address waited for the limit.
    stack = await CliStack.create(program, "down", stackOnEmulator(emulator, { "many-accounts:count": String(accounts) }));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("fails, naming the address setting once per account, without a line per retry", async () => {
    await stack.deploy();
    await emulator.close();
    const check = await stack.driftCheck();
    const output = check.lines.join("\n");
    assert.notEqual(check.exitCode, 0, output);
    const errors = resourceErrors(check);
    assert.deepEqual(errors.map((error) => nameOf(error.urn)).sort(), Array.from({ length: accounts }, (_, n) => `account-${n + 1}`).sort(), output);
    for (const { urn, message } of errors) {
      assert.match(
        message,
        new RegExp(
          `crm\\.Account "Bench account ${nameOf(urn).slice("account-".length)}": .*crm:apiUrl.*${emulator.crmUrl.replace(/\./g, "\\.")}.*refused the connection`,
        ),
        message,
      );
      assert.ok(!message.includes(emulator.apiToken), message);
    }
    // Each account's error is shown by the CLI (beside the account and under Diagnostics) and
    // printed by the provider host (shown twice too): before, each of those said ECONNREFUSED.
    const refused = check.lines.filter((line) => line.includes("ECONNREFUSED")).length;
    assert.ok(refused <= accounts, `${refused} lines carry ECONNREFUSED for ${accounts} accounts:\n${output}`);
  });
});
