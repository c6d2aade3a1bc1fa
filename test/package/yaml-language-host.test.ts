// Pulumi YAML's language host, built from the Go module proxy (scripts/toolchain.ts
// ensureYamlLanguageHost) and linked beside `pulumi`: the real CLI runs a YAML program through
// it. A program with no provider, so that this holds the host alone; YAML programs of the crm
// package need its native plugin.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureToolchain, ensureYamlLanguageHost } from "../../scripts/toolchain";
import { CliStack } from "../../scripts/harness/pulumi-cli";

describe("Pulumi YAML programs on the real CLI (pulumi-language-yaml)", function () {
  this.timeout(20 * 60_000);
  const program = mkdtempSync(join(tmpdir(), "pulumi-crm-yaml-"));
  let stack: CliStack;

  before(async () => {
    ensureYamlLanguageHost(ensureToolchain());
    writeFileSync(
      join(program, "Pulumi.yaml"),
      ["name: yaml-host", "runtime: yaml", "variables:", "  greeting: hello from ${pulumi.stack}", "outputs:", "  greeting: ${greeting}", ""].join("\n"),
    );
    stack = await CliStack.create(program, "dev");
  });

  after(() => rmSync(program, { recursive: true, force: true }));

  it("preview runs the program: the stack to create, its output known", async () => {
    const preview = await stack.preview("--diff");
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.equal(preview.steps.create, 1);
    assert.match(preview.stdout, /greeting\s*:\s*"hello from dev"/);
  });

  it("up records the output, destroy removes the stack's resources", async () => {
    await stack.deploy();
    assert.deepEqual(await stack.outputs(), { greeting: "hello from dev" });
    const destroy = await stack.destroy();
    assert.equal(destroy.exitCode, 0, destroy.lines.join("\n"));
  });
});
