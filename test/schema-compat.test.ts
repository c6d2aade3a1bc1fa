// The schema compatibility check (scripts/schema-compat.ts): the schemas now break no user of the
// schemas of the last release (schema/released/), and the check fails, naming the break, on each
// kind of breaking change made to a copy of schema/crm.json (Pulumi's schema tools' classes among
// them: a required output made optional, a type narrowed, an enum value removed, a default
// changed, a secret flag changed); additions pass, and so does any change with a new major version.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { breakingChanges, checkSchemas, releasedSchemaFolder } from "../scripts/schema-compat";
import { repoRoot } from "../scripts/harness/packed-program";

type Spec = Record<string, any>;
const released = (): Spec => JSON.parse(readFileSync(join(releasedSchemaFolder, "crm.json"), "utf8"));
/** A copy of the released crm schema, changed by `change`. */
const changed = (change: (schema: Spec) => void): Spec => {
  const schema = released();
  change(schema);
  return schema;
};

describe("schema compatibility with the last release (scripts/schema-compat.ts)", () => {
  it("schema/crm.json and schema/chat.json break nothing of the released schemas", () => {
    for (const [name, breaks] of checkSchemas()) assert.deepEqual(breaks, [], `schema/${name}.json`);
  });

  const breaking: Array<[string, (schema: Spec) => void, RegExp]> = [
    ["a removed resource", (schema) => delete schema.resources["crm:index:AccountNote"], /^resource crm:index:AccountNote removed$/],
    ["a removed function", (schema) => delete schema.functions["crm:index:getAccount"], /^function crm:index:getAccount removed$/],
    [
      "a removed input",
      (schema) => delete schema.resources["crm:index:Account"].inputProperties.accountUrl,
      /^crm:index:Account input: property "accountUrl" removed$/,
    ],
    [
      "a removed output",
      (schema) => delete schema.resources["crm:index:Account"].properties.accountUrl,
      /^crm:index:Account output: property "accountUrl" removed$/,
    ],
    [
      "a changed type",
      (schema) => (schema.resources["crm:index:Account"].inputProperties.name = { type: "integer", description: "a number now" }),
      /^crm:index:Account input: property "name" changed type from string to integer$/,
    ],
    [
      "a newly required input",
      (schema) => schema.resources["crm:index:Account"].requiredInputs.push("accountUrl"),
      /^crm:index:Account input: input "accountUrl" is required now$/,
    ],
    ["a removed config variable", (schema) => delete schema.config.variables.apiUrl, /^config: property "apiUrl" removed$/],
    [
      "a removed function input",
      (schema) => delete schema.functions["crm:index:getAccount"].inputs.properties.name,
      /^crm:index:getAccount input: property "name" removed$/,
    ],
    // The classes of Pulumi's own schema tools.
    [
      "a required output made optional",
      (schema) => schema.resources["crm:index:Account"].required.splice(schema.resources["crm:index:Account"].required.indexOf("name"), 1),
      /^crm:index:Account output: output "name" is no longer required \(it may be missing\)$/,
    ],
    [
      "a function's required output made optional",
      (schema) => (schema.functions["crm:index:getAccount"].outputs.required = ["id", "name", "contactCount"]),
      /^crm:index:getAccount output: output "dealCount" is no longer required/,
    ],
    [
      "an object type's required member made optional",
      (schema) => (schema.types["crm:index:ContactSyncFailure"].required = ["email"]),
      /^type crm:index:ContactSyncFailure: output "reason" is no longer required/,
    ],
    [
      "a type narrowed",
      (schema) => (schema.resources["crm:index:AccountCustomField"].inputProperties.fieldDefault = { type: "string", description: "text only now" }),
      /^crm:index:AccountCustomField input: property "fieldDefault" changed type from string\|number\|array<string> to string$/,
    ],
    [
      "an enum value removed",
      (schema) => schema.types["crm:index:CalendarFeedType"].enum.pop(),
      /^type crm:index:CalendarFeedType: enum value "Contacts" removed$/,
    ],
    [
      "a default changed",
      (schema) => (schema.resources["crm:index:Address"].inputProperties.isDefault.default = true),
      /^crm:index:Address input: property "isDefault" changed its default from false to true$/,
    ],
    [
      "a default removed",
      (schema) => delete schema.resources["crm:index:Address"].inputProperties.allgroup.default,
      /^crm:index:Address input: property "allgroup" changed its default from false to none$/,
    ],
    [
      "an output made secret",
      (schema) => (schema.resources["crm:index:Account"].properties.accountUrl.secret = true),
      /^crm:index:Account output: property "accountUrl" is secret now$/,
    ],
    [
      "an output no longer secret",
      (schema) => delete schema.resources["crm:index:CalendarFeed"].properties.token.secret,
      /^crm:index:CalendarFeed output: property "token" is no longer secret$/,
    ],
    ["a config variable no longer secret", (schema) => delete schema.config.variables.apiToken.secret, /^config: property "apiToken" is no longer secret$/],
  ];
  for (const [what, change, expected] of breaking) {
    it(`fails on ${what}`, () => {
      const breaks = breakingChanges(released(), changed(change));
      assert.equal(breaks.length, 1, breaks.join("\n"));
      assert.match(breaks[0], expected);
    });
  }

  it("passes additions: a new resource, a new optional input, an input no longer required", () => {
    const schema = changed((next) => {
      next.resources["crm:index:Other"] = structuredClone(next.resources["crm:index:AccountNote"]);
      next.resources["crm:index:Account"].inputProperties.industry = { type: "string", description: "new" };
      next.resources["crm:index:Account"].requiredInputs = [];
    });
    assert.deepEqual(breakingChanges(released(), schema), []);
  });

  it("passes a breaking change with a new major version", () => {
    const schema = changed((next) => {
      delete next.resources["crm:index:AccountNote"];
      next.version = `${Number(next.version.split(".")[0]) + 1}.0.0`;
    });
    assert.deepEqual(breakingChanges(released(), schema), []);
  });

  it("the command exits 1 on a broken schema, naming the package and the break", async () => {
    const work = mkdtempSync(join(tmpdir(), "pulumi-crm-schema-compat-"));
    try {
      mkdirSync(join(work, "current"));
      writeFileSync(join(work, "current", "crm.json"), JSON.stringify(changed((schema) => delete schema.resources["crm:index:AccountNote"])));
      writeFileSync(join(work, "current", "chat.json"), readFileSync(join(releasedSchemaFolder, "chat.json")));
      const script = join(repoRoot, "scripts", "schema-compat.ts");
      const ran = promisify(execFile)(process.execPath, ["-r", "ts-node/register/transpile-only", script, "--current", join(work, "current")], {
        cwd: repoRoot,
      });
      await assert.rejects(ran, (error: { code: number; stdout: string; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /crm: 1 breaking change\(s\) against the released schema/);
        assert.match(error.stderr, /resource crm:index:AccountNote removed/);
        assert.match(error.stdout, /chat: no breaking change/);
        return true;
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
