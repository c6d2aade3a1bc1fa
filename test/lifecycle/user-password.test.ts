// A user's password given as a plain string, on the real CLI: encrypted in the state,
// absent from every line the CLI prints (up, a preview of its change with the diff, refresh,
// destroy), and a change of it an update.

import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { installProgram } from "../../scripts/harness/packed-program";
import type { RunningEmulator } from "../../scripts/harness/emulator";
import { CliStack, secretSignature } from "../../scripts/harness/pulumi-cli";

/** Every file under `folder` (the backend: the state, its backups, the update history), as text, by path. */
const textsUnder = (folder: string): Array<[string, string]> =>
  readdirSync(folder).flatMap((entry): Array<[string, string]> => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? textsUnder(path) : [[path, readFileSync(path, "utf8")]];
  });

describe("a user's password on the pulumi CLI", function () {
  this.timeout(600_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let program: string;
  const first = "first-horse-battery";
  const second = "second-horse-battery";
  const printed: string[] = [];

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    program = installProgram(join(__dirname, "programs", "user-password"), "lifecycle-user-password", { typeCheck: "once" });
    stack = await CliStack.create(program, "dev", { config: { "crm:apiUrl": emulator.crmUrl }, secrets: { "crm:apiToken": emulator.apiToken } });
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("is encrypted in the state though given as a plain string, and a change of it is an update", async () => {
    writeFileSync(join(program, "password.txt"), first);
    const up = await stack.deploy();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    printed.push(up.stdout, up.stderr);
    writeFileSync(join(program, "password.txt"), second);
    const preview = await stack.preview("--diff");
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.match(preview.stdout, /password/);
    assert.match(preview.stdout, /\[secret\]/);
    printed.push(preview.stdout, preview.stderr);
    const update = await stack.up();
    assert.equal(update.exitCode, 0, update.lines.join("\n"));
    assert.equal(update.steps.update, 1, update.lines.join("\n"));
    printed.push(update.stdout, update.stderr);
    const refresh = await stack.refresh("--diff");
    printed.push(refresh.stdout, refresh.stderr);
    const states = textsUnder(stack.backend);
    assert.ok(states.length >= 2, states.map(([path]) => path).join(", "));
    for (const password of [first, second])
      assert.deepEqual(
        states.filter(([, text]) => text.includes(password)).map(([path]) => path),
        [],
        `files holding ${password}`,
      );
    const user = stack.resources().find((resource) => resource.type.endsWith("crm:User"))!;
    for (const side of [user.inputs, user.outputs])
      assert.equal(side?.password?.[secretSignature], "1b47061264138c4ac30d75fd1eb44270", `not secret: ${JSON.stringify(side?.password)}`);
  });

  it("never shows in what the CLI printed", async () => {
    const destroy = await stack.destroy("--skip-preview");
    printed.push(destroy.stdout, destroy.stderr);
    for (const password of [first, second]) assert.equal(printed.join("\n").includes(password), false, `the CLI printed ${password}`);
  });
});
