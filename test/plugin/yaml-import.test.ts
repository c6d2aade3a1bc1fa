// `pulumi import` of every importable crm resource by its id alone, into a Pulumi YAML program
// on the native plugin: an object of each type made outside the stack (by the resource modules,
// with the inputs of test/support/resource-examples.ts), imported with `pulumi import <token>
// <name> <id>`, the code the YAML host prints added to the program; the import reads what a
// create's read reads; the next preview shows no change and `up` sends no request. An action (crm:index:ContactSync; chat:index:FlowRun, in
// test/doors/server.test.ts) is refused: its id alone does not give what it was declared with.

import assert from "node:assert/strict";
import { join } from "node:path";
import { resources } from "../../provider/registry";
import { emulatorCall, emulatorForProvider, type RunningEmulator, stackOnEmulator } from "../../scripts/harness/emulator";
import { addPrintedCode, assertImportRoundTrips, installYamlProgram } from "../../scripts/harness/plugin-program";
import { CliStack, secretSignature } from "../../scripts/harness/pulumi-cli";
import { makeEveryCrmObject, resourceExamples } from "../support/resource-examples";

describe("pulumi import of every importable crm resource into a Pulumi YAML program on the native plugin", function () {
  this.timeout(20 * 60_000);
  let emulator: RunningEmulator;
  let program: string;
  let stack: CliStack;
  const crmResources = resources.filter((resource) => resource.namespace === "crm");
  const importable = crmResources.filter((resource) => resourceExamples[`crm.${resource.className}`].roundTrip);
  /** Each crm resource's object: its id, and the inputs it was made with. */
  let made: Awaited<ReturnType<typeof makeEveryCrmObject>>;
  const tokenOf = (resource: (typeof crmResources)[number]) => `crm:index:${resource.className}`;
  const nameOf = (resource: (typeof crmResources)[number]) => resource.className[0].toLowerCase() + resource.className.slice(1);

  /** An address made outside Pulumi with a user group and a list: its associations are imported with it. */
  let associated: string;

  before(async () => {
    emulator = await emulatorForProvider();
    made = await makeEveryCrmObject(emulator);
    const address = await emulatorCall(emulator, "POST", "/api/3/addresses", {
      address: { company_name: "Associated", address_1: "3 Side St", country: "US", groupid: 3, listid: 7 },
    });
    associated = String((address.body as { address: { id: unknown } }).address.id);
    ({ program } = await installYamlProgram(join(__dirname, "programs", "yaml-import"), "plugin-yaml-import"));
    stack = await CliStack.create(program, "dev", stackOnEmulator(emulator));
  });
  after(async () => {
    await emulator?.close();
    stack?.remove();
  });

  it("imports each by its id, with inputs holding what it was made with", async () => {
    const printed: string[] = [];
    for (const resource of importable) {
      const { id } = made.get(resource.className)!;
      const imported = await stack.run(["import", tokenOf(resource), nameOf(resource), id, "--yes", "--protect=false"]);
      assert.equal(imported.exitCode, 0, imported.lines.join("\n"));
      printed.push(imported.stdout);
    }
    const withAssociations = await stack.run(["import", "crm:index:Address", "associatedAddress", associated, "--yes", "--protect=false"]);
    assert.equal(withAssociations.exitCode, 0, withAssociations.lines.join("\n"));
    printed.push(withAssociations.stdout);
    assert.match(withAssociations.stdout, /groupId: '3'/);
    assert.match(withAssociations.stdout, /listId: '7'/);
    addPrintedCode(program, ...printed);
    for (const resource of importable) {
      const state = stack.resources().find((entry) => entry.type === tokenOf(resource))!;
      const { id, inputs } = made.get(resource.className)!;
      assert.equal(state.id, id, tokenOf(resource));
      assert.equal(state.protect ?? false, false, tokenOf(resource));
      assert.deepEqual(Object.fromEntries(Object.keys(inputs).map((key) => [key, state.inputs?.[key]])), inputs, tokenOf(resource));
    }
  });

  it("reads what a create's read reads: every output, a secret one marked secret, and what the service chose", async () => {
    const secretMarked = (value: unknown) => typeof value === "object" && value !== null && secretSignature in value;
    for (const resource of importable) {
      const { outputs = {} } = stack.resources().find((entry) => entry.type === tokenOf(resource))!;
      const { outs } = made.get(resource.className)!;
      assert.deepEqual(
        Object.keys(outputs)
          .filter((key) => key in outs)
          .sort(),
        Object.keys(outs).sort(),
        tokenOf(resource),
      );
      // A write-only secret (a user's password) is never read: an import has none.
      for (const output of resource.definition.declaration.secretOutputs.filter((name) => name in outs))
        assert.ok(secretMarked(outputs[output]), `${tokenOf(resource)} ${output}`);
    }
    const outputsOf = (type: string) => stack.resources().find((entry) => entry.type === type)!.outputs!;
    assert.equal(outputsOf("crm:index:AccountCustomFieldValue").fieldType, "text");
    // The position the service gave the field, which export declares too.
    assert.equal(typeof outputsOf("crm:index:AccountCustomField").displayOrder, "number");
    const refreshed = await stack.refresh();
    assert.equal(refreshed.exitCode, 0, refreshed.lines.join("\n"));
    assert.equal(outputsOf("crm:index:AccountCustomFieldValue").fieldType, "text");
    assert.ok(secretMarked(outputsOf("crm:index:CalendarFeed").token));
  });

  it("the program with the printed code previews no change, and up sends no request", async () => {
    await assertImportRoundTrips(stack, emulator);
    // The engine records an import with no list of secret outputs; the program's first up writes it.
    const feed = stack.resources().find((entry) => entry.type === "crm:index:CalendarFeed")!;
    assert.ok(secretSignature in feed.outputs!.token, "the feed's token stays secret");
    assert.deepEqual(feed.additionalSecretOutputs, ["token"]);
    assert.equal(stack.resources().filter((resource) => resource.type.startsWith("crm:index:")).length, importable.length + 1);
  });

  it("refuses an action, whose id alone does not give what it was declared with", async () => {
    const { id } = made.get("ContactSync")!;
    const refused = await stack.run(["import", "crm:index:ContactSync", "contactSync", id, "--yes", "--protect=false"]);
    assert.notEqual(refused.exitCode, 0);
    assert.match(refused.lines.join("\n"), new RegExp(`crm.ContactSync ${id} cannot be imported: its id names a run`));
  });
});
