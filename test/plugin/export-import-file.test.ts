// `pulumi-crm export --import-file` writes a `pulumi import --file` document of the account's
// objects (each one's schema token, name and id); `pulumi import --file` with it takes every
// object into a Pulumi YAML program on the native plugin, whose printed code, added to the
// program, previews no change and whose `up` sends no request.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { exportedResources } from "../../provider/commands/export/read-account";
import { emulatorForProvider, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { repoRoot } from "../../scripts/harness/packed-program";
import { addPrintedCode, assertImportRoundTrips, installYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";
import { makeEveryCrmObject } from "../support/resource-examples";

describe("pulumi-crm export --import-file, imported by pulumi import --file into a Pulumi YAML program on the native plugin", function () {
  this.timeout(20 * 60_000);
  const work = mkdtempSync(join(tmpdir(), "pulumi-crm-import-file-"));
  const importFile = join(work, "import.json");
  let emulator: RunningEmulator;
  let program: string;
  let stack: CliStack;

  before(async () => {
    emulator = await emulatorForProvider();
    await makeEveryCrmObject(emulator);
    ({ program } = await installYamlProgram(join(__dirname, "programs", "yaml-import"), "plugin-export-import-file"));
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    rmSync(work, { recursive: true, force: true });
  });

  it("export writes each object's token, name and id", async () => {
    const bin = join(repoRoot, "provider", "commands", "bin.ts");
    // Every kind: the account's data too.
    const args = ["export", "--api-url", emulator.crmUrl, "--kinds", "all", "--out", join(work, "program"), "--import-file", importFile];
    await promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", bin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, CRM_API_TOKEN: emulator.apiToken },
    });
    const { resources } = JSON.parse(readFileSync(importFile, "utf8")) as { resources: Array<{ type: string; name: string; id: string }> };
    assert.deepEqual(new Set(resources.map((resource) => resource.type)), new Set(exportedResources.map((resource) => `crm:index:${resource.className}`)));
    assert.equal(new Set(resources.map((resource) => resource.name)).size, resources.length);
    const account = resources.find((resource) => resource.name === "acme-1");
    assert.deepEqual(account, { type: "crm:index:Account", name: "acme-1", id: account?.id });
  });

  it("pulumi import --file takes every object; with the printed code, the preview shows no change and up sends no request", async () => {
    const imported = await stack.run(["import", "--file", importFile, "--yes", "--protect=false"]);
    assert.equal(imported.exitCode, 0, imported.lines.join("\n"));
    const { resources } = JSON.parse(readFileSync(importFile, "utf8")) as { resources: unknown[] };
    assert.equal(stack.resources().filter((resource) => resource.type.startsWith("crm:index:")).length, resources.length);
    addPrintedCode(program, imported.stdout);
    await assertImportRoundTrips(stack, emulator);
  });
});
