// The resource registry against what the package holds: every resource module and every
// exported resource class is registered, under its own name, and each page's input
// table names exactly the fields of the resource's input schema.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as chat from "../provider/chat";
import * as crm from "../provider/crm";
import { resources, typeOf } from "../provider/registry";
import { configurationFields } from "../provider/kit/inputs";
import { exportedResources } from "../provider/commands/export/read-account";

const root = join(__dirname, "..");
const kebabCase = (name: string) => name.replace(/(?<!^)([A-Z])/g, "-$1").toLowerCase();

/** The inputs an sdk-docs page's input table names (a row may name several), in its order. */
function documentedInputs(page: string): string[] {
  const lines = readFileSync(page, "utf8").split("\n");
  const header = lines.findIndex((line) => line.startsWith("| Input |"));
  assert.notEqual(header, -1, `${page} has no input table`);
  const rows = lines.slice(header + 2).filter((_, index, rest) => rest.slice(0, index + 1).every((line) => line.startsWith("|")));
  return rows.flatMap((row) => [...row.split("|")[1].matchAll(/`(\w+)`/g)].map((match) => match[1]));
}

describe("the resource registry", () => {
  it("registers every definition its namespace's folders hold, each once, and a door module per definition, at its name", () => {
    const providerDir = join(root, "provider");
    const isDefinition = (value: unknown) => typeof value === "object" && value !== null && "description" in value && "declaration" in value && "core" in value;
    const defined = ["crm", "chat"].flatMap((namespace) =>
      readdirSync(join(providerDir, namespace), { recursive: true, encoding: "utf8" })
        .filter((file) => file.includes("/") && file.endsWith(".ts"))
        .flatMap((file) => Object.values(require(join(providerDir, namespace, file)) as Record<string, unknown>).filter(isDefinition)),
    );
    const registered = resources.map((resource) => resource.definition);
    assert.equal(new Set(registered).size, registered.length);
    assert.deepEqual(new Set(registered), new Set(defined));
    const doors = ["crm", "chat"].flatMap((namespace) =>
      readdirSync(join(providerDir, namespace))
        .filter((file) => file.endsWith(".ts"))
        .map((file) => require(join(providerDir, namespace, file)))
        .filter((module) => typeof module.check === "function"),
    );
    assert.deepEqual(new Set(doors.map((door) => door.core)), new Set(registered.map((definition) => definition.core)));
    for (const resource of resources)
      assert.equal(require(join(providerDir, resource.namespace, resource.name)).core, resource.definition.core, typeOf(resource));
  });

  it("registers every resource class the namespaces export, under its name, file and page", () => {
    const exported = Object.entries({ crm, chat }).flatMap(([namespace, members]) =>
      Object.entries(members)
        .filter(([, member]) => typeof member === "function" && member.prototype instanceof pulumi.dynamic.Resource)
        .map(([className]) => `${namespace}.${className}`),
    );
    assert.deepEqual(resources.map(typeOf).sort(), exported.sort());
    for (const resource of resources) {
      assert.equal(resource.name, kebabCase(resource.className));
      assert.ok(existsSync(join(root, "provider", resource.namespace, `${resource.name}.ts`)), `${typeOf(resource)}: no module named ${resource.name}`);
    }
  });

  it("each export declaration refers to kinds exported and registered before it, and follows or is completed from one of them", () => {
    for (const [index, { name, definition }] of exportedResources.entries()) {
      const declaration = definition.exported;
      assert.match(`${declaration.path} ${declaration.collection}`, /^(\/\w+)+ \w+$/, `${name}: where the service lists its objects`);
      const earlier = exportedResources.slice(0, index);
      for (const [input, kind] of Object.entries(declaration.refersTo ?? {})) {
        assert.ok(
          earlier.some((resource) => resource.name === kind),
          `${name}: ${input} refers to ${kind}, which is not an exported kind registered before it`,
        );
      }
      for (const input of [declaration.follows, declaration.completedFrom?.input].filter((input) => input !== undefined)) {
        const kind = declaration.refersTo?.[input];
        assert.ok(kind, `${name}: ${input} is not one of its refersTo`);
      }
      // The name filter keeps what has a name, and what follows an object that has one.
      const followed =
        declaration.follows === undefined ? undefined : exportedResources.find((resource) => resource.name === declaration.refersTo?.[declaration.follows!]);
      assert.ok(declaration.name || followed?.definition.exported.name, `${name}: neither named nor following a named kind`);
    }
  });

  it("links every resource's page from the README's table and the documentation's index", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const index = readFileSync(join(root, "sdk-docs", "README.md"), "utf8");
    for (const resource of resources) {
      const page = `${resource.namespace}-${resource.name}.md`;
      assert.ok(readme.includes(`| [\`${typeOf(resource)}\`](sdk-docs/${page}) |`), `README.md's table has no row for ${typeOf(resource)}`);
      assert.ok(index.includes(`- [${typeOf(resource)}](${page})`), `sdk-docs/README.md does not link ${page}`);
    }
  });

  for (const resource of resources) {
    const page = join(root, "sdk-docs", `${resource.namespace}-${resource.name}.md`);
    it(`sdk-docs/${resource.namespace}-${resource.name}.md lists the inputs of ${typeOf(resource)}, and says which are read only at creation or by check`, () => {
      const fields = Object.keys(resource.definition.inputSchema.shape);
      assert.deepEqual([...documentedInputs(page)].sort(), [...fields].sort());
      const table = readFileSync(page, "utf8");
      for (const field of fields.filter((name) => !configurationFields(resource.definition.inputSchema).includes(name))) {
        assert.match(
          table,
          new RegExp(`^\\| \`${field}\` \\|[^\\n]*\\| only read (at creation|by check)`, "m"),
          `${field} is read only at creation or by check`,
        );
      }
    });
  }
});
