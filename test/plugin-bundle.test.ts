// The plugins' bundle holds what a provider runs, and none of the SDK's code that only a
// program runs (a dynamic resource's code paths, the Automation API, the TypeScript compiler):
// loading it made each plugin start slower and hold more (sdk-docs/performance.md).

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { bundlePlugin } from "../scripts/plugin-bundle";

describe("the plugins' bundle", function () {
  this.timeout(120_000);
  let folder: string;
  let bundle: string;

  before(async () => {
    folder = mkdtempSync(join(os.tmpdir(), "plugin-bundle-"));
    await bundlePlugin("crm", join(folder, "pulumi-resource-crm.js"));
    bundle = readFileSync(join(folder, "pulumi-resource-crm.js"), "utf8");
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  // esbuild heads each module it bundles with a comment naming its file.
  const bundled = () => [...bundle.matchAll(/^\/\/ node_modules\/(\S+)$/gm)].map((match) => match[1]);
  const standIns = ["@pulumi/pulumi/automation/index.js", "@pulumi/pulumi/typescript-shim.js", "@pulumi/pulumi/runtime/closure/codePaths.js"];

  it("holds none of the modules only a program loads", () => {
    const programOnly = ["@npmcli/arborist/", "pacote/", "sigstore/", "@pulumi/pulumi/automation/", "typescript/"];
    const held = bundled().filter((path) => programOnly.some((prefix) => path.startsWith(prefix)) && !standIns.includes(path));
    assert.deepEqual(held, []);
  });

  it("holds in their place stand-ins that fail if ever used", () => {
    assert.deepEqual(
      standIns.filter((path) => !bundled().includes(path)),
      [],
    );
    for (const refusal of [
      "the provider plugin computes no code paths",
      "the provider plugin drives no Automation API",
      "the provider plugin serializes no closures",
    ]) {
      assert.ok(bundle.includes(`throw new Error("${refusal}`), refusal);
    }
  });
});
