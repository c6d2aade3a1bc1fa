import assert from "node:assert/strict";
import { programFiles, ProgramSettings } from "../../provider/export/program";
import { ExportedObject } from "../../provider/export/read-account";

const settings: ProgramSettings = {
  project: "acme-crm",
  apiUrl: "https://acme.api-us1.com",
  dependencies: { pulumiCrm: "^0.1.0", pulumi: "^3.216.0", typescript: "~5.9.3", tsNode: "^10.9.2" },
};
const account = (id: string, name: string): ExportedObject => ({ kind: "account", id, title: name, inputs: { name, accountUrl: null }, refersTo: {}, builtIn: false });
const declarations = (index: string) => [...index.matchAll(/^const (\w+) = new crm\.\w+\("([^"]+)"/gm)].map(([, variable, resource]) => `${variable} ${resource}`);

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

  it("refers to an exported object by its variable, to any other by its id, and leaves unset inputs out", () => {
    const note = (id: string, accountId: string): ExportedObject => ({
      kind: "account-note",
      id,
      title: "Acme note",
      inputs: { accountId, note: "Hi" },
      refersTo: { accountId: "account" },
      builtIn: false,
    });
    const index = programFiles([account("7", "Acme"), note("1", "7"), note("2", "8")], settings)["index.ts"];
    assert.match(index, /const acme = new crm\.Account\("acme", \{\n  adoptId: "7",\n  name: "Acme",\n\}, \{ protect: true \}\);/);
    assert.match(index, /new crm\.AccountNote\("acme-note", \{\n  adoptId: "1",\n  accountId: acme\.id,\n/);
    assert.match(index, /new crm\.AccountNote\("acme-note-2", \{\n  adoptId: "2",\n  accountId: "8",\n/);
  });
});
