// Issue 47's done-when program in Pulumi YAML on the native plugin, on the real CLI: a user group
// with a user, a pipeline with three stages, a deal field, a task type, site tracking with two
// domains, event tracking with two events and a custom object schema (test/support/sales-side.ts)
// deploy; a second up
// sends no request; a change of each kind behind the program's back is drift (exit 7), repaired
// by up --refresh; each is imported by its id alone into an empty program with a clean preview;
// `pulumi-crm export` declares each, adopted with no write; destroy leaves the account as found.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../../emulator";
import { exportedResources } from "../../provider/commands/export/read-account";
import { writesByRoute, writesSince } from "../support/adoption";
import { repoRoot } from "../../scripts/harness/packed-program";
import { type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { addPrintedCode, assertImportRoundTrips, copyYamlProgram, installYamlProgram, namePluginFolders } from "../../scripts/harness/plugin-program";
import { CliStack } from "../../scripts/harness/pulumi-cli";
import { accountAt, assertDestroyLeavesAsFound, declaredIn, itDeploysAndRepairs, salesSide } from "../support/sales-side";
import type { BuiltPlugin } from "../../scripts/plugin-bundle";

describe("the sales, team and tracking side in Pulumi YAML on the native plugin, on the real CLI", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let stack: CliStack;
  let plugin: BuiltPlugin;
  let found: Record<string, unknown>;
  let started = 0;

  before(async () => {
    started = Date.now();
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    found = await accountAt(emulator);
    let program: string;
    ({ program, plugin } = await installYamlProgram(join(__dirname, "programs", "sales-side"), "plugin-yaml-sales-side"));
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
    console.log(`      yaml sales side: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  itDeploysAndRepairs(
    () => ({ stack, emulator }),
    (className) => `crm:index:${className}`,
  );

  it("each object imported by its id alone into an empty program: its code previews no change, and up sends no request", async () => {
    const program = copyYamlProgram(join(__dirname, "programs", "yaml-import"), "plugin-yaml-sales-side-import");
    namePluginFolders(program, { [plugin.pkg]: plugin.folder });
    const imports = await CliStack.create(program, "imported", stackOnEmulator(emulator));
    try {
      const made = declaredIn(stack);
      const printed: string[] = [];
      for (const object of salesSide) {
        const imported = await imports.run(["import", `crm:index:${object.className}`, object.name, made.get(object.name)!.id!, "--yes", "--protect=false"]);
        assert.equal(imported.exitCode, 0, imported.lines.join("\n"));
        printed.push(imported.stdout);
      }
      addPrintedCode(program, ...printed);
      await assertImportRoundTrips(imports, emulator);
      // The import declares what the program declares (and what the service chose: a field's display order), but the password, which is never read.
      const declared = declaredIn(stack);
      for (const [name, resource] of declaredIn(imports)) {
        const { password: _password, ...inputs } = declared.get(name)!.inputs!;
        assert.deepEqual(Object.fromEntries(Object.keys(inputs).map((key) => [key, resource.inputs?.[key]])), inputs, name);
      }
    } finally {
      // Left without a destroy: the objects are the first stack's.
      imports.remove();
    }
  });

  it("pulumi-crm export declares each object: its import file, taken by pulumi import --file, writes nothing and previews no change", async () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-sales-side-export-"));
    const importFile = join(work, "import.json");
    const program = copyYamlProgram(join(__dirname, "programs", "yaml-import"), "plugin-yaml-sales-side-export");
    namePluginFolders(program, { [plugin.pkg]: plugin.folder });
    const adopting = await CliStack.create(program, "exported", stackOnEmulator(emulator));
    try {
      const bin = join(repoRoot, "provider", "commands", "bin.ts");
      const args = ["export", "--api-url", emulator.crmUrl, "--out", join(work, "program"), "--import-file", importFile];
      await promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", bin, ...args], {
        cwd: repoRoot,
        env: { ...process.env, CRM_API_TOKEN: emulator.apiToken },
      });
      const { resources } = JSON.parse(readFileSync(importFile, "utf8")) as { resources: Array<{ type: string; id: string }> };
      // Each but the kinds the export cannot read (nothing lists a list's group permissions or a field group's members).
      const exportedTypes = new Set(exportedResources.map((resource) => `crm:index:${resource.className}`));
      for (const [name, resource] of [...declaredIn(stack)].filter(([, resource]) => exportedTypes.has(resource.type)))
        assert.ok(
          resources.some((entry) => entry.type === resource.type && entry.id === resource.id),
          `${name} is not exported`,
        );
      const writesBefore = await writesByRoute(emulator);
      const imported = await adopting.run(["import", "--file", importFile, "--yes", "--protect=false"]);
      assert.equal(imported.exitCode, 0, imported.lines.join("\n"));
      addPrintedCode(program, imported.stdout);
      await assertImportRoundTrips(adopting, emulator);
      assert.deepEqual(await writesSince(emulator, writesBefore), {});
    } finally {
      // Left without a destroy: the objects are the first stack's.
      adopting.remove();
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("destroy leaves the account as found, the switches as they were", () => assertDestroyLeavesAsFound(stack, emulator, found));
});
