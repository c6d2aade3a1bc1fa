// The package schemas (schema/crm.json, schema/chat.json, written by `npm run generate`) as
// Pulumi's own binder reads them (tools/schema-check, over pkg/v3/codegen/schema at the CLI's
// release): they bind without a diagnostic, every property has a description, and Pulumi's
// Node.js, Python and Go generators make SDKs of them (issue 35's SDKs), whose classes carry the
// alias to the dynamic resource type deployed stacks hold. In the program tier: the binder is
// built on the CLI's Go module cache (ensureToolchain()).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureSchemaCheck, ensureToolchain } from "../../scripts/toolchain";
import { repoRoot } from "../../scripts/harness/packed-program";

interface Report {
  file: string;
  diagnostics: string[];
  errors: number;
  undescribed: string[];
  resources: number;
  functions: number;
  types: number;
  properties: number;
  sdkFiles: Record<string, number>;
}

/** A go.mod's requirements (`module version`), its go version and replaces. */
const requirements = (module: string) =>
  readFileSync(join(repoRoot, "tools", module, "go.mod"), "utf8")
    .split("\n")
    .filter((line) => /^\t\S+ v\S+/.test(line) || /^(replace|go) /.test(line))
    .map((line) => line.replace(/ \/\/ indirect$/, "").trim());

describe("the package schemas, bound by Pulumi's binder", function () {
  this.timeout(20 * 60_000);
  let binder: string;

  before(() => {
    ensureToolchain();
    binder = ensureSchemaCheck();
  });

  it("build the binder on the CLI's own requirements", () => {
    const cli = requirements("pulumi-cli");
    const own = requirements("schema-check");
    assert.deepEqual(
      cli.filter((requirement) => !own.includes(requirement)),
      [],
      "every requirement of the CLI, at its version",
    );
    const cliSums = readFileSync(join(repoRoot, "tools", "pulumi-cli", "go.sum"), "utf8");
    for (const extra of own.filter((requirement) => !cli.includes(requirement))) assert.ok(cliSums.includes(`${extra} `), `${extra} is in the CLI's go.sum`);
  });

  for (const name of ["crm", "chat"]) {
    it(`schema/${name}.json binds without a diagnostic, every property described, and makes Node.js, Python and Go SDKs`, () => {
      const sdks = mkdtempSync(join(tmpdir(), "pulumi-crm-sdks-"));
      try {
        // Exit 1 with a report when the schema has an error or an undescribed property; 2 without one when it cannot be read or generated.
        const run = spawnSync(binder, ["-sdks", sdks, join(repoRoot, "schema", `${name}.json`)], { encoding: "utf8" });
        assert.ok(run.status === 0 || run.status === 1, run.stderr);
        const report = JSON.parse(run.stdout) as Report;
        assert.deepEqual(report.diagnostics, []);
        assert.deepEqual(report.undescribed, []);
        assert.deepEqual(Object.keys(report.sdkFiles).sort(), ["go", "nodejs", "python"]);
        const resource = name === "crm" ? "calendarFeed" : "flowRun";
        assert.match(
          readFileSync(join(sdks, "nodejs", name, `${resource}.ts`), "utf8"),
          new RegExp(`aliases: \\[\\{ type: "pulumi-nodejs:dynamic/${name}:\\w+" \\}\\]`),
        );
        console.log(
          `      ${report.resources} resources, ${report.functions} functions, ${report.types} types, ${report.properties} properties; SDK files ${JSON.stringify(report.sdkFiles)}`,
        );
      } finally {
        rmSync(sdks, { recursive: true, force: true });
      }
    });
  }
});
