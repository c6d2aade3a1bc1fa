// The modules of the Pulumi SDK the test run defers (test/support/deferred-modules.js): the SDK
// loads without them, and what needs them later (serializing a function, which parses it with
// TypeScript; listing a function's packages, which arborist does) loads them and gives what it
// gives without the deferral.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./support/packed-program";

describe("the SDK modules the test run defers", function () {
  const dir = join(repoRoot, ".work", "deferred-modules-test");

  before(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "node_modules", "tiny"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "deferring", private: true, dependencies: { tiny: "1.0.0" } }));
    writeFileSync(join(dir, "node_modules", "tiny", "package.json"), JSON.stringify({ name: "tiny", version: "1.0.0" }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Which of the two are loaded after the SDK, then what the two features give. */
  function run(deferring: boolean): { atStart: boolean[]; serialized: string; packages: string[]; atEnd: boolean[] } {
    const script = `
      const pulumi = require(${JSON.stringify(require.resolve("@pulumi/pulumi"))});
      const loaded = () => ["/@npmcli/arborist/", "/typescript/lib/"].map((part) => Object.keys(require.cache).some((file) => file.includes(part)));
      const atStart = loaded();
      Promise.all([pulumi.runtime.serializeFunction(() => 42), pulumi.runtime.computeCodePaths()]).then(([serialized, packages]) =>
        console.log(JSON.stringify({ atStart, serialized: serialized.text, packages: [...packages.keys()], atEnd: loaded() })));`;
    const preload = deferring ? ["--require", join(__dirname, "support", "deferred-modules.js")] : [];
    const result = spawnSync(process.execPath, [...preload, "-e", script], { cwd: dir, env: { PATH: process.env.PATH }, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    return JSON.parse(result.stdout);
  }

  it("loads the SDK without arborist and TypeScript, and each on first use, giving the same results", () => {
    const deferred = run(true);
    assert.deepEqual(deferred.atStart, [false, false], "a deferral no longer applies: has the SDK moved the require?");
    assert.deepEqual(deferred.atEnd, [true, true]);
    assert.match(deferred.serialized, /return \(\) => 42;/);
    assert.deepEqual(deferred.packages, ["node_modules/tiny"]);
    const loadedAtStart = run(false);
    assert.deepEqual(loadedAtStart.atStart, [true, true]);
    assert.deepEqual({ ...deferred, atStart: [] }, { ...loadedAtStart, atStart: [] });
  });
});
