// The package schemas (schema/crm.json, schema/chat.json, written by `npm run generate`) as
// Pulumi's own binder reads them (tools/schema-check, over pkg/v3/codegen/schema at the CLI's
// release): they bind without a diagnostic, and every property has a description. In the
// program tier: the binder is built on the CLI's Go module cache (ensureToolchain()).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureSchemaCheck, ensureToolchain } from "../scripts/toolchain";
import { repoRoot } from "./support/packed-program";

interface Report {
  file: string;
  diagnostics: string[];
  errors: number;
  undescribed: string[];
  resources: number;
  functions: number;
  types: number;
  properties: number;
}

/** A go.mod's requirements, without its module line and comments. */
const requirements = (module: string) =>
  readFileSync(join(repoRoot, "tools", module, "go.mod"), "utf8")
    .split("\n")
    .filter((line) => /^\t\S+ v\S+/.test(line) || /^(replace|go) /.test(line));

describe("the package schemas, bound by Pulumi's binder", function () {
  this.timeout(20 * 60_000);
  let binder: string;

  before(() => {
    ensureToolchain();
    binder = ensureSchemaCheck();
  });

  it("build the binder on the CLI's own requirements", () => {
    assert.deepEqual(requirements("schema-check"), requirements("pulumi-cli"));
  });

  for (const name of ["crm", "chat"]) {
    it(`schema/${name}.json binds without a diagnostic, every property described`, () => {
      // Exit 1 with a report when the schema has an error or an undescribed property; 2 without one when it cannot be read.
      const run = spawnSync(binder, [join(repoRoot, "schema", `${name}.json`)], { encoding: "utf8" });
      assert.ok(run.status === 0 || run.status === 1, run.stderr);
      const report = JSON.parse(run.stdout) as Report;
      assert.deepEqual(report.diagnostics, []);
      assert.deepEqual(report.undescribed, []);
      console.log(`      ${report.resources} resources, ${report.functions} functions, ${report.types} types, ${report.properties} properties`);
    });
  }
});
