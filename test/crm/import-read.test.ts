// An import reads what a create's read reads: a resource imported from its id alone (the core's
// import read, as both doors call it) holds every output its create gave, and what the service
// chose where the export declares it. Through the plugin on the real CLI:
// test/plugin/yaml-import.test.ts.

import assert from "node:assert/strict";
import * as customField from "../../provider/crm/account-custom-field";
import * as customFieldValue from "../../provider/crm/account-custom-field-value";
import { resources } from "../../provider/registry";
import { emulatorForProvider, emulatorRead, type RunningEmulator } from "../../scripts/harness/emulator";
import { type MadeObject, makeEveryCrmObject, resourceExamples } from "../support/resource-examples";

describe("an import reads what a create's read reads", () => {
  let emulator: RunningEmulator;
  let made: Map<string, MadeObject>;
  const importable = resources.filter((resource) => resource.namespace === "crm" && resourceExamples[`crm.${resource.className}`].roundTrip);

  before(async () => {
    emulator = await emulatorForProvider();
    made = await makeEveryCrmObject(emulator);
  });
  after(() => emulator.close());

  it("every output a create gives, with the same value where it was declared", async () => {
    for (const resource of importable) {
      const { id, inputs, outs } = made.get(resource.className)!;
      const imported = (await resource.definition.core.read(id, { import: true }))!;
      assert.deepEqual(
        Object.keys(outs).filter((key) => !(key in imported.outputs)),
        [],
        resource.className,
      );
      for (const key of Object.keys(inputs).filter((key) => key in outs)) assert.deepEqual(imported.outputs[key], outs[key], `${resource.className} ${key}`);
    }
  });

  it("a custom field's value has its field's type, also on refresh of a state imported without it", async () => {
    const { id } = made.get("AccountCustomFieldValue")!;
    const imported = (await customFieldValue.core.read(id, { import: true }))!;
    assert.equal(imported.outputs.fieldType, "text");
    const { fieldType: _lost, ...importedEarlier } = imported.outputs;
    const refreshed = (await customFieldValue.core.read(id, { refresh: importedEarlier }))!;
    assert.equal(refreshed.outputs.fieldType, "text");
  });

  it("a custom field has the display order the service gave it, in its outputs and inputs, as the export declares it", async () => {
    const { id } = made.get("AccountCustomField")!;
    const { displayOrder } = (await emulatorRead(emulator, `/accountCustomFieldMeta/${id}`)).accountCustomFieldMetum;
    const imported = (await customField.core.read(id, { import: true }))!;
    assert.equal(imported.outputs.displayOrder, Number(displayOrder));
    assert.equal(imported.inputs.displayOrder, Number(displayOrder));
  });
});
