// checkInputs and diffInputs on their own, with a small kind of their own: no emulator,
// no resource module. The per-resource tests hold each resource's schema; these hold
// what every resource gets from the kit.

import assert from "node:assert/strict";
import { z } from "zod";
import { optionalText, requiredText, strictObject, unknownValue, withoutProvider } from "../provider/kit/inputs";
import { checkInputs, diffInputs, labelBy, type ResourceKind } from "../provider/kit/check-diff";
import { SettingsError } from "../provider/settings";

const schema = strictObject({
  name: requiredText("the widget's name", 10),
  colour: optionalText(10),
  sizes: z.array(z.number().int("must be a whole number")).optional(),
  adoptId: z.string().optional(),
});

let settingsProblem: string | undefined;

const widget: ResourceKind<typeof schema> = {
  type: "test.Widget",
  schema,
  services: [],
  label: labelBy("test.Widget", "name"),
  replaceOn: ["name"],
  checkSettings: (resource) => {
    if (settingsProblem) throw new SettingsError(`${resource}: ${settingsProblem}`);
  },
  refine: (inputs, refuse) => {
    if (inputs.colour === "clear" && inputs.sizes?.length) refuse("sizes", "must be left out of a clear widget");
    return { ...inputs, colour: inputs.colour?.toLowerCase() };
  },
};

const provider = "exports.handler = ...";

describe("checkInputs", () => {
  afterEach(() => (settingsProblem = undefined));

  it("returns the normalized inputs, unset members left out, the serialized provider kept as given", () => {
    assert.deepEqual(checkInputs(widget, { name: "Knob", colour: "RED", __provider: provider }), {
      inputs: { name: "Knob", colour: "red", __provider: provider },
    });
    const { inputs } = checkInputs(widget, { name: "Knob", colour: "", __provider: provider });
    assert.deepEqual(inputs, { name: "Knob", __provider: provider });
    assert.equal("colour" in inputs!, false, "an undefined member, which the host's Struct refuses");
  });

  it("stores the creation-only inputs under a key of their own, which the lifecycle reads as declared", () => {
    const { inputs } = checkInputs(widget, { name: "Knob", adoptId: "7", __provider: provider });
    assert.deepEqual(inputs, { name: "Knob", __neverCompared: { adoptId: "7" }, __provider: provider });
    assert.deepEqual(withoutProvider(inputs!), { name: "Knob", adoptId: "7" });
    assert.deepEqual(checkInputs(widget, { name: "Knob", __provider: provider }).inputs, { name: "Knob", __provider: provider });
  });

  it("names the resource, the field and the rule in each failure, one per problem", () => {
    const { inputs, failures } = checkInputs(widget, { name: "Knob".repeat(3), colour: 5, sizes: [1, 2.5] });
    assert.equal(inputs, undefined);
    assert.deepEqual(failures, [
      { property: "name", reason: 'test.Widget "KnobKnobKnob": name must be at most 10 characters' },
      { property: "colour", reason: 'test.Widget "KnobKnobKnob": colour must be a string' },
      // Nested: the CLI shows a nested property's value as <nil>, so the reason names the field and its value.
      { property: "", reason: 'test.Widget "KnobKnobKnob": sizes[1] must be a whole number (given 2.5)' },
    ]);
  });

  // The CLI prints a failure's property value whole, then the reason: a 1,000-character name once
  // made a 2,169-character line, the value printed twice.
  it("cuts a long value in its messages, reporting it on the resource so that the CLI does not print it whole", () => {
    const name = "n".repeat(1000);
    const { failures } = checkInputs(widget, { name, colour: "red" });
    const cut = `"${"n".repeat(59)}…" (1000 characters)`;
    assert.deepEqual(failures, [{ property: "", reason: `test.Widget "${"n".repeat(59)}…": name must be at most 10 characters (given ${cut})` }]);
    assert.ok(failures![0].reason.length < 200);
  });

  it("gives each unknown field a failure of its own, listing the fields", () => {
    const { failures } = checkInputs(widget, { name: "Knob", color: "red", size: 3 });
    assert.deepEqual(
      failures?.map((failure) => failure.property),
      ["color", "size"],
    );
    assert.match(failures![0].reason, /^test\.Widget "Knob": color is not a field of this resource; the fields are: name, colour, sizes, adoptId$/);
  });

  it("a missing required field says what it is", () => {
    assert.deepEqual(checkInputs(widget, {}).failures, [{ property: "name", reason: "test.Widget: name is required: the widget's name" }]);
  });

  it("runs the kind's rules across fields once every input is known, naming the field", () => {
    assert.deepEqual(checkInputs(widget, { name: "Pane", colour: "clear", sizes: [1] }).failures, [
      { property: "sizes", reason: 'test.Widget "Pane": sizes must be left out of a clear widget' },
    ]);
    const preview = checkInputs(widget, { name: "Pane", colour: "clear", sizes: [1], adoptId: unknownValue });
    assert.equal(preview.failures, undefined, "a rule is not run while a value is not known yet");
  });

  it("passes a value not known yet through unvalidated, at any depth, and normalizes the known fields", () => {
    const { inputs, failures } = checkInputs(widget, { name: unknownValue, colour: "", sizes: [3, unknownValue], __provider: provider });
    assert.equal(failures, undefined);
    assert.deepEqual(inputs, { name: unknownValue, sizes: [3, unknownValue], __provider: provider });
  });

  it("still refuses what an unknown value cannot excuse: a bad known field, an unknown field", () => {
    const { failures } = checkInputs(widget, { name: unknownValue, colour: 7, shape: "round" });
    assert.deepEqual(
      failures?.map((failure) => failure.property),
      ["colour", "shape"],
    );
  });

  it("fails the whole resource, before validating any field, on a settings problem", () => {
    settingsProblem = "crm:apiUrl is required";
    assert.deepEqual(checkInputs(widget, { name: 7 }), { failures: [{ property: "", reason: "test.Widget: crm:apiUrl is required" }] });
  });
});

describe("diffInputs", () => {
  const olds = { name: "Knob", colour: "red", sizes: [1, 2], adoptId: "5", __provider: "old code" };

  it("sees no change when only bookkeeping differs: the provider's code, creation-only options", () => {
    assert.deepEqual(diffInputs(widget, olds, { name: "Knob", colour: "red", sizes: [1, 2], __provider: "new code" }), { fields: [] });
  });

  it("counts unset and null alike, and compares arrays and objects by value", () => {
    assert.deepEqual(diffInputs(widget, { name: "Knob", colour: null }, { name: "Knob" }).fields, []);
    assert.deepEqual(diffInputs(widget, { name: "Knob", sizes: [1, 2] }, { name: "Knob", sizes: [1, 2] }).fields, []);
    assert.deepEqual(diffInputs(widget, { name: "Knob", sizes: [1, 2] }, { name: "Knob", sizes: [2, 1] }).fields, [{ field: "sizes", replace: false }]);
  });

  it("updates an updatable field in place, and replaces on a replaceOn field", () => {
    assert.deepEqual(diffInputs(widget, olds, { ...olds, colour: "blue" }), { fields: [{ field: "colour", replace: false }] });
    assert.deepEqual(diffInputs(widget, olds, { ...olds, name: "Dial", colour: undefined }), {
      fields: [
        { field: "name", replace: true },
        { field: "colour", replace: false },
      ],
    });
  });

  it("counts a value not known yet as a change, at any depth", () => {
    assert.deepEqual(diffInputs(widget, olds, { ...olds, sizes: [1, unknownValue] }).fields, [{ field: "sizes", replace: false }]);
    assert.deepEqual(diffInputs(widget, olds, { ...olds, name: unknownValue }).fields, [{ field: "name", replace: true }]);
    assert.deepEqual(
      diffInputs(widget, { ...olds, colour: unknownValue }, { ...olds, colour: unknownValue }).fields,
      [{ field: "colour", replace: false }],
      "even against the same placeholder",
    );
  });

  it("ignores what only creation reads (adoptId) and the serialized provider", () => {
    assert.deepEqual(diffInputs(widget, olds, { ...olds, adoptId: "12", __provider: "exports.handler = another" }).fields, []);
  });
});
