// A TypeScript program on the generated Node.js SDK (@pulumi-crm/crm, packed from
// sdk/nodejs/crm) on the real CLI: installed as users install a package, type-checked against
// the SDK's declarations, run through up, a second up, the drift check and destroy. Without
// resources: declaring crm resources needs the native plugin `pulumi-resource-crm` (issue 35,
// point 1); the program takes their names from its `generated-sdk:accounts` config.

import assert from "node:assert/strict";
import { join } from "node:path";
import { installProgram } from "../support/packed-program";
import { CliStack } from "../support/pulumi-cli";

describe("a TypeScript program on the generated Node.js SDK, on the real CLI", function () {
  this.timeout(10 * 60_000);
  let stack: CliStack;

  before(async () => {
    const program = installProgram(join(__dirname, "programs", "generated-sdk"), "lifecycle-generated-sdk", { generatedSdks: ["crm"], typeCheck: "once" });
    stack = await CliStack.create(program, "dev");
  });

  it("runs up, a second up with no change, the drift check and destroy of a program without resources", async () => {
    const up = await stack.up();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    assert.equal(up.steps.create, 1);
    assert.deepEqual(await stack.outputs(), { accountIds: [] });
    const again = await stack.up();
    assert.equal(again.exitCode, 0, again.lines.join("\n"));
    assert.equal(again.changes, false);
    const drift = await stack.driftCheck();
    assert.equal(drift.exitCode, 0, drift.lines.join("\n"));
    const destroy = await stack.destroy();
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
  });
});
