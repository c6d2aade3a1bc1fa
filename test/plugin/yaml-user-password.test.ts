// A user's password written as a plain literal in a Pulumi YAML program on the native plugin:
// the plugin marks it secret, so the state holds it encrypted and no line the CLI prints holds
// it; a change of it is an update.

import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../../emulator";
import { type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { installYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack, secretSignature } from "../../scripts/harness/pulumi-cli";

/** Every file under `folder` (the backend: the state, its backups, the update history), as text, by path. */
const textsUnder = (folder: string): Array<[string, string]> =>
  readdirSync(folder).flatMap((entry): Array<[string, string]> => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? textsUnder(path) : [[path, readFileSync(path, "utf8")]];
  });

describe("a user's password in a Pulumi YAML program on the native plugin", function () {
  this.timeout(10 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let program: string;
  const [first, second] = ["first-horse-battery", "second-horse-battery"];

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    ({ program } = await installYamlProgram(join(__dirname, "programs", "yaml-user"), "plugin-yaml-user"));
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("is secret in the state though written plain, a change of it an update, and never printed", async () => {
    const printed: string[] = [];
    const up = await stack.deploy();
    assert.equal(up.exitCode, 0, up.lines.join("\n"));
    printed.push(up.stdout, up.stderr);
    const user = () => stack.resources().find((resource) => resource.type === "crm:index:User")!;
    for (const side of [user().inputs, user().outputs])
      assert.equal(side?.password?.[secretSignature], "1b47061264138c4ac30d75fd1eb44270", `not secret: ${JSON.stringify(side?.password)}`);

    const yaml = join(program, "Pulumi.yaml");
    writeFileSync(yaml, readFileSync(yaml, "utf8").replace(first, second));
    const preview = await stack.preview("--diff");
    assert.equal(preview.exitCode, 0, preview.lines.join("\n"));
    assert.match(preview.stdout, /password/);
    printed.push(preview.stdout, preview.stderr);
    const update = await stack.up();
    assert.equal(update.exitCode, 0, update.lines.join("\n"));
    assert.equal(update.steps.update, 1, update.lines.join("\n"));
    printed.push(update.stdout, update.stderr);
    const destroy = await stack.destroy("--skip-preview");
    printed.push(destroy.stdout, destroy.stderr);

    for (const password of [first, second]) {
      assert.deepEqual(
        textsUnder(stack.backend)
          .filter(([, text]) => text.includes(password))
          .map(([path]) => path),
        [],
        `files holding ${password}`,
      );
      assert.equal(printed.join("\n").includes(password), false, `the CLI printed ${password}`);
    }
  });
});
