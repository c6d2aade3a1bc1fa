// What `npm publish` would ship: the file list of `npm pack`, and the exports map
// through which every deployed resource's serialized provider requires its module.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { packedTarball, repoRoot } from "../../scripts/harness/packed-program";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  name: string;
  main: string;
  types: string;
  exports: Record<string, unknown>;
  keywords: string[];
  bin: Record<string, string>;
  repository: { url: string };
  license: string;
};

describe("the published package", function () {
  this.timeout(120_000);
  let files: string[];

  before(() => {
    // Builds and packs once per test run (shared with the lifecycle tests); the dry run
    // then lists what that build would ship, without building again.
    const tarball = packedTarball();
    console.log(`      tarball: ${(statSync(tarball).size / 1024).toFixed(1)} kB packed`);
    const output = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [pack] = JSON.parse(output.slice(output.indexOf("["))) as Array<{
      files: Array<{ path: string }>;
      size: number;
      unpackedSize: number;
      entryCount: number;
    }>;
    files = pack.files.map((file) => file.path);
    console.log(
      `      npm pack --dry-run: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(1)} kB packed, ${(pack.unpackedSize / 1024).toFixed(1)} kB unpacked`,
    );
  });

  it("ships no tests, test engine, benchmarks or work files", () => {
    const unwanted = files.filter(
      (file) =>
        /^(test|engine|bench|\.work|\.ci|scripts)\//.test(file) ||
        /^dist\/(test|engine|bench|scripts)\//.test(file) ||
        /(^|\/)node_modules\//.test(file) ||
        /\.tgz$/.test(file),
    );
    assert.deepEqual(unwanted, []);
  });

  it("ships the entry point, its types, the emulator, LICENSE, README and CHANGELOG", () => {
    for (const file of [
      "package.json",
      "LICENSE",
      "README.md",
      "CHANGELOG.md",
      manifest.main,
      manifest.types,
      "dist/emulator/bin.js",
      "dist/provider/crm/account.js",
    ]) {
      assert.ok(files.includes(file), `${file} is not in the tarball`);
    }
    assert.match(readFileSync(join(repoRoot, "LICENSE"), "utf8"), /Apache License\s+Version 2\.0, January 2004/);
    assert.equal(manifest.license, "Apache-2.0");
    for (const keyword of ["pulumi", "pulumi-provider", "crm"]) assert.ok(manifest.keywords.includes(keyword), keyword);
    assert.match(manifest.repository.url, /^git\+https:\/\//);
  });

  it("ships the native plugins as bins, with the package schemas they serve", () => {
    assert.deepEqual(
      [manifest.bin["pulumi-resource-crm"], manifest.bin["pulumi-resource-chat"]],
      ["dist/provider/plugin/crm.js", "dist/provider/plugin/chat.js"],
    );
    for (const file of ["dist/provider/plugin/crm.js", "dist/provider/plugin/chat.js", "dist/schema/crm.json", "dist/schema/chat.json"]) {
      assert.ok(files.includes(file), `${file} is not in the tarball`);
    }
    assert.match(readFileSync(join(repoRoot, "dist/provider/plugin/crm.js"), "utf8"), /^#!\/usr\/bin\/env node\n/);
  });

  it("exports the entry point and the deep paths serialized providers require", () => {
    // Self-reference by package name goes through `exports`, as a program's require does.
    assert.equal(require.resolve(manifest.name, { paths: [repoRoot] }), join(repoRoot, "dist/provider/index.js"));
    assert.equal(require.resolve(`${manifest.name}/dist/provider/crm/account.js`, { paths: [repoRoot] }), join(repoRoot, "dist/provider/crm/account.js"));
    assert.equal(require.resolve(`${manifest.name}/package.json`, { paths: [repoRoot] }), join(repoRoot, "package.json"));
    // The closure serializer maps a module's path through `exports` to what `__provider` requires:
    // the same deep path that stacks deployed before the map existed have in their state.
    const { getModuleFromPath } = require("@pulumi/pulumi/runtime/closure/package") as { getModuleFromPath(path: string, pkg: unknown): string };
    for (const module of ["dist/provider/crm/account.js", "dist/provider/chat/flow-run.js", "dist/provider/crm/lookups/index.js"]) {
      assert.equal(getModuleFromPath(`${manifest.name}/${module}`, manifest), `${manifest.name}/${module}`);
    }
    assert.equal(getModuleFromPath(`${manifest.name}/dist/provider/index.js`, manifest), manifest.name);
  });

  it("the README's install section names the tarball npm pack makes", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
    assert.ok(readme.includes(`npm install ./pulumi-crm-${version}.tgz`), "README install section: tarball name");
    assert.ok(readme.includes("npm install pulumi-crm"), "README install section: registry install");
  });
});
