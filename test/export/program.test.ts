import assert from "node:assert/strict";
import { programFiles, type ProgramSettings } from "../../provider/commands/export/program";
import type { ExportedObject } from "../../provider/commands/export/read-account";

const settings: ProgramSettings = {
  project: "acme-crm",
  apiUrl: "https://acme.api-us1.com",
  language: "typescript",
  stack: "prod",
  kinds: ["account", "account-note"],
  plugin: { version: "0.1.0", downloadUrl: "github://api.github.com/pulumi-crm/pulumi-crm" },
  dependencies: { pulumiCrm: "^0.1.0", pulumi: "^3.216.0", typescript: "~5.9.3", tsNode: "^10.9.2" },
};
const account = (id: string, name: string): ExportedObject => ({
  kind: "account",
  id,
  title: name,
  inputs: { name, accountUrl: null },
  refersTo: {},
  references: {},
  builtIn: false,
});
const note = (id: string, accountId: string, accountName?: string): ExportedObject => ({
  kind: "account-note",
  id,
  title: `${accountName ?? "Nameless"} note`,
  inputs: { accountId, note: "Hi ${name}" },
  refersTo: { accountId: "account" },
  references: { accountId: { kind: "account", id: accountId, name: accountName } },
  builtIn: false,
});
const declarations = (index: string) =>
  [...index.matchAll(/^const (\w+) = new crm\.\w+\("([^"]+)"/gm)].map(([, variable, resource]) => `${variable} ${resource}`);

describe("pulumi-crm export: the program written", () => {
  it("names each object from its own name: readable, a valid variable, unique in the program", () => {
    const objects = [
      account("1", "Déjà Vu Inc."),
      account("2", "3M"),
      account("3", "New"),
      account("4", "株式会社"),
      account("5", "deja-vu inc"),
      account("6", "A very long account name with many words"),
    ];
    assert.deepEqual(declarations(programFiles(objects, settings)["index.ts"]), [
      "dejaVuInc deja-vu-inc",
      "account3m account-3m",
      "newAccount new-account",
      "account4 account-4",
      "dejaVuInc2 deja-vu-inc-2",
      "aVeryLongAccountNameWith a-very-long-account-name-with",
    ]);
  });

  it("refers to an exported object by its variable, to any other by a lookup of its name, and leaves out one that is gone, saying so", () => {
    const index = programFiles([account("7", "Acme"), note("1", "7", "Acme"), note("2", "8", "Globex"), note("3", "9")], settings)["index.ts"];
    assert.match(index, /const acme = new crm\.Account\("acme", \{\n {2}adoptId: adopt\["acme"\],\n {2}name: "Acme",\n\}, \{ protect \}\);/);
    assert.match(index, /new crm\.AccountNote\("acme-note", \{\n {2}adoptId: adopt\["acme-note"\],\n {2}accountId: acme\.id,\n/);
    assert.match(index, /^const globexAccount = crm\.getAccountOutput\(\{ name: "Globex" \}\)\.id;$/m);
    assert.match(index, /new crm\.AccountNote\("globex-note", \{\n {2}adoptId: adopt\["globex-note"\],\n {2}accountId: globexAccount,\n/);
    assert.match(
      index,
      /^\/\/ nameless-note: accountId: the account 9 it names is no object of the account; left out\nconst namelessNote = new crm\.AccountNote\("nameless-note", \{\n {2}adoptId: adopt\["nameless-note"\],\n {2}note: /m,
    );
  });

  it("keeps the account's ids and protect in the stack's settings, not in the program; built-ins take no id", () => {
    const builtIn: ExportedObject = {
      kind: "task-type",
      id: "1",
      title: "Call task type",
      inputs: { title: "Call", disabled: false },
      refersTo: {},
      references: {},
      builtIn: true,
    };
    const files = programFiles([account("7", "Acme"), builtIn], settings);
    assert.deepEqual(Object.keys(files).sort(), ["Pulumi.prod.yaml", "Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    assert.match(
      files["Pulumi.prod.yaml"],
      /^config:\n {2}crm:apiUrl: https:\/\/acme\.api-us1\.com\n {2}acme-crm:protect: true\n {2}acme-crm:adopt:\n {4}acme: "7"\n$/m,
    );
    assert.doesNotMatch(files["Pulumi.prod.yaml"], /call/);
    assert.match(files["index.ts"], /new crm\.TaskType\("call-task-type", \{\n {2}title: "Call",\n {2}disabled: false,\n\}, \{ protect \}\);/);
    assert.doesNotMatch(files["index.ts"], /"7"/);
  });

  it("lays a nested value out as a formatter does: on one line when it fits, else a member a line", () => {
    const schema: ExportedObject = {
      kind: "custom-object-schema",
      id: "0b7e2a55-3c1d-4f8e-9a6b-2d4c8e1f7a90",
      title: "machine",
      inputs: {
        slug: "machine",
        labels: { singular: "Machine", plural: "Machines" },
        fields: [
          { id: "serial", labels: { singular: "Serial number of the machine", plural: "Serial numbers of the machines" }, type: "text", required: true },
        ],
      },
      refersTo: {},
      references: {},
      builtIn: false,
    };
    const index = programFiles([schema], settings)["index.ts"];
    assert.match(index, /\n {2}labels: \{ singular: "Machine", plural: "Machines" \},\n/);
    assert.match(
      index,
      /\n {2}fields: \[\n {4}\{\n {6}id: "serial",\n {6}labels: \{ singular: "Serial number of the machine", plural: "Serial numbers of the machines" \},\n {6}type: "text",\n {6}required: true,\n {4}\},\n {2}\],\n/,
    );
    for (const line of index.split("\n")) assert.ok(line.length <= 120, line);
  });

  it("writes the same program in Pulumi YAML: config settings, references by resource name, lookups as variables, `${` kept literal", () => {
    const files = programFiles([account("7", "Acme"), note("1", "7", "Acme"), note("2", "8", "Globex")], { ...settings, language: "yaml" });
    assert.deepEqual(Object.keys(files).sort(), ["Pulumi.prod.yaml", "Pulumi.yaml"]);
    const program = files["Pulumi.yaml"];
    assert.match(program, /\nconfig:\n {2}adopt:\n {4}type: object\n {4}default: \{\}\n {2}protect:\n {4}type: boolean\n {4}default: false\n/);
    assert.match(
      program,
      /\nvariables:\n {2}globexAccount:\n {4}fn::invoke:\n {6}function: crm:index:getAccount\n {6}arguments:\n {8}name: Globex\n {6}return: id\n/,
    );
    assert.match(
      program,
      /\n {2}acme:\n {4}type: crm:Account\n {4}properties:\n {6}adoptId: \$\{adopt\["acme"\]\}\n {6}name: Acme\n {4}options:\n {6}protect: \$\{protect\}\n {6}version: "0\.1\.0"\n {6}pluginDownloadURL: github:\/\/api\.github\.com\/pulumi-crm\/pulumi-crm\n/,
    );
    assert.match(program, /\n {6}accountId: \$\{acme\.id\}\n {6}note: "Hi \$\$\{name\}"\n/);
    assert.match(program, /\n {6}accountId: \$\{globexAccount\}\n/);
    // Only the first resource names the plugin's release.
    assert.equal(program.match(/pluginDownloadURL/g)?.length, 1);
  });
});
