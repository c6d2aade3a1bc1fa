// The Pulumi Registry's pages (docs/_index.md, docs/installation-configuration.md): the front
// matter the Registry reads, and examples that say what the tested programs say: the YAML example
// names the plugin's version and download URL as test/plugin/programs/yaml-download does (which
// test/plugin/download.test.ts runs), and the install commands name the packages the release
// writes (test/release.test.ts). The Go example builds in test/release.test.ts.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pluginDownloadURL } from "../scripts/generate/package-schema";
import { repoRoot } from "./support/packed-program";

const page = (name: string) => readFileSync(join(repoRoot, "docs", name), "utf8");
const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describe("the Pulumi Registry's pages (docs/)", () => {
  for (const name of ["_index.md", "installation-configuration.md"]) {
    it(`${name} opens with the front matter the Registry reads: title, meta_desc, layout: package`, () => {
      const [, matter] = /^---\n([\s\S]*?)\n---\n/.exec(page(name)) ?? [];
      assert.ok(matter, `docs/${name} has no front matter`);
      assert.match(matter, /^title: \S/m);
      assert.match(matter, /^meta_desc: \S/m);
      assert.match(matter, /^layout: package$/m);
    });
  }

  it("the YAML example names the version and download URL as the downloaded program does", () => {
    const tested = readFileSync(join(repoRoot, "test", "plugin", "programs", "yaml-download", "Pulumi.yaml"), "utf8");
    const options = `    options:\n      version: ${version}\n      pluginDownloadURL: ${pluginDownloadURL}\n`;
    assert.ok(tested.includes(options));
    assert.ok(page("_index.md").includes(options));
  });

  it("the install commands name the packages the release writes", () => {
    const text = page("installation-configuration.md");
    for (const command of ["npm install @pulumi-crm/crm", "pip install pulumi_crm", `go get github.com/pulumi-crm/pulumi-crm/sdk@v${version}`, `pulumi plugin install resource crm ${version} --server ${pluginDownloadURL}`]) {
      assert.ok(text.includes(command), command);
    }
    const sdk = JSON.parse(readFileSync(join(repoRoot, "sdk", "nodejs", "crm", "package.json"), "utf8")) as { name: string };
    assert.equal(sdk.name, "@pulumi-crm/crm");
  });
});
