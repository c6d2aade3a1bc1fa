// The Pulumi Registry's pages (docs/_index.md, docs/installation-configuration.md, and chat's,
// docs/chat/_index.md): the front matter the Registry reads, links by address, the logo and
// keywords of the schemas, and examples that say what the tested programs say: the YAML example
// names the plugin's version and download URL as test/plugin/programs/yaml-download does (which
// test/plugin/download.test.ts runs), and the install commands name the packages the release
// writes (test/package/release.test.ts). The Go example builds in test/package/release.test.ts.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pluginDownloadURL } from "../scripts/generate/package-schema";
import { repoRoot } from "../scripts/harness/packed-program";

const page = (name: string) => readFileSync(join(repoRoot, "docs", name), "utf8");
const version = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describe("the Pulumi Registry's pages (docs/)", () => {
  for (const name of ["_index.md", "installation-configuration.md", "chat/_index.md"]) {
    it(`${name} opens with the front matter the Registry reads: title, meta_desc, layout: package`, () => {
      const [, matter] = /^---\n([\s\S]*?)\n---\n/.exec(page(name)) ?? [];
      assert.ok(matter, `docs/${name} has no front matter`);
      assert.match(matter, /^title: \S/m);
      assert.match(matter, /^meta_desc: \S/m);
      assert.match(matter, /^layout: package$/m);
    });
  }

  it("links to another page by its address, as the Registry serves it, never by its .md file name; each such page exists", () => {
    for (const name of ["_index.md", "installation-configuration.md", "chat/_index.md"]) {
      for (const [, target] of page(name).matchAll(/\]\(([^)]+)\)/g)) {
        if (/^https?:/.test(target)) continue;
        assert.doesNotMatch(target, /\.md(#|$)/, `docs/${name} links to ${target}`);
        // `./installation-configuration/` is docs/installation-configuration.md; `./chat/` docs/chat/_index.md; `../` the folder above's.
        const path = join(dirname(name), target.replace(/#.*$/, "")).replace(/\/$/, "");
        const candidates = [`${path}.md`, join(path, "_index.md")].map((file) => join(repoRoot, "docs", file));
        assert.ok(
          candidates.some((file) => existsSync(file)),
          `docs/${name} links to ${target}: no page there`,
        );
      }
    }
  });

  it("the schemas carry what the Registry shows: the logo, and the kind/native keyword", () => {
    for (const name of ["crm", "chat"]) {
      const schema = JSON.parse(readFileSync(join(repoRoot, "schema", `${name}.json`), "utf8")) as { logoUrl: string; keywords: string[] };
      assert.ok(schema.keywords.includes("kind/native"), `schema/${name}.json: ${schema.keywords.join(", ")}`);
      // The logo is the repository's docs/logo.svg, as its main branch serves it.
      assert.match(schema.logoUrl, /^https:\/\/raw\.githubusercontent\.com\/pulumi-crm\/pulumi-crm\/main\/docs\/logo\.svg$/);
      assert.match(readFileSync(join(repoRoot, "docs", "logo.svg"), "utf8"), /^<svg /);
    }
  });

  it("the chat page's YAML example sets only inputs chat:index:FlowRun has, its required ones among them", () => {
    const yaml = require(require.resolve("js-yaml", { paths: [require.resolve("@pulumi/pulumi")] })) as { load(text: string): any };
    const [, block] = /```yaml\n([\s\S]*?)```/.exec(page("chat/_index.md"))!;
    const chat = JSON.parse(readFileSync(join(repoRoot, "schema", "chat.json"), "utf8"));
    const flowRun = chat.resources["chat:index:FlowRun"];
    for (const resource of Object.values<{ type: string; properties: Record<string, unknown> }>(yaml.load(block).resources)) {
      assert.equal(resource.type, "chat:FlowRun");
      for (const name of Object.keys(resource.properties)) assert.ok(name in flowRun.inputProperties, name);
      for (const name of flowRun.requiredInputs) assert.ok(name in resource.properties, name);
    }
  });

  it("the YAML example names the version and download URL as the downloaded program does", () => {
    const tested = readFileSync(join(repoRoot, "test", "plugin", "programs", "yaml-download", "Pulumi.yaml"), "utf8");
    const options = `    options:\n      version: ${version}\n      pluginDownloadURL: ${pluginDownloadURL}\n`;
    assert.ok(tested.includes(options));
    assert.ok(page("_index.md").includes(options));
  });

  it("the install commands name the packages the release writes", () => {
    const text = page("installation-configuration.md");
    for (const command of [
      "npm install @pulumi-crm/crm",
      "pip install pulumi_crm",
      `go get github.com/pulumi-crm/pulumi-crm/sdk@v${version}`,
      `pulumi plugin install resource crm ${version} --server ${pluginDownloadURL}`,
    ]) {
      assert.ok(text.includes(command), command);
    }
    const sdk = JSON.parse(readFileSync(join(repoRoot, "sdk", "nodejs", "crm", "package.json"), "utf8")) as { name: string };
    assert.equal(sdk.name, "@pulumi-crm/crm");
  });
});
