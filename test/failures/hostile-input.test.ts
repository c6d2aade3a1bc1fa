// Every resource's check against hostile inputs, generated with fast-check: random JSON,
// and mutations of a valid input (wrong types, huge strings, unicode, nested unknowns,
// prototype keys). Check never throws, names a field of the resource (or a path into one,
// or the unknown key given) in each failure, sends what the host can carry, and is
// idempotent: checking the checked inputs gives them back. Then generated valid inputs
// of each CRM object are created on the emulator: read gives back what create did.
//
// Per resource, CI checks 2,000 inputs and writes 50; `npm run soak` (RELIABILITY_SOAK=1)
// checks 10,000 and writes 200 (about 30 s in all).

import assert from "node:assert/strict";
import fc from "fast-check";
import { startEmulator } from "../../emulator";
import { resources, typeOf } from "../../provider/registry";
import { unknownValue } from "../../provider/kit/inputs";
import { useStackConfig } from "../../provider/settings";
import { configOf, type RunningEmulator } from "../../scripts/harness/emulator";
import { asHostSends } from "../support/host-struct";
import { dynamicProviderOf, providerCode, type ResourceModule } from "../support/provider-steps";
import { makeParents, type Parents, type ResourceExample, resourceExamples } from "../support/resource-examples";

const soak = process.env.RELIABILITY_SOAK === "1";
const checkRuns = soak ? 10_000 : 2_000;
const roundTripRuns = soak ? 200 : 50;

interface Subject {
  name: string;
  module: ResourceModule;
  /** A valid input; ids of other objects are filled in once the emulator holds them. */
  valid: () => Record<string, unknown>;
  textFields: string[];
  roundTrip: ResourceExample["roundTrip"];
  /** How many generated inputs the round trip writes: one where every input is the same and a delete leaves the object (see ResourceExample.undeletable). */
  runs: number;
}

/** Objects the dependent resources point at, made on the emulator in `before`. */
let parents: Parents;

const subjects: Subject[] = resources.map((resource) => {
  const { inputs, textFields, roundTrip, undeletable }: ResourceExample = resourceExamples[typeOf(resource)];
  const runs = undeletable && textFields.length === 0 ? 1 : roundTripRuns;
  return { name: typeOf(resource), module: dynamicProviderOf(resource), valid: () => inputs(parents, 1), textFields, roundTrip, runs };
});

const prototypeKeys = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

/** A copy with `key` as an own member, as JSON.parse makes it (assigning __proto__ would set the prototype). */
function withOwnKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return Object.defineProperty({ ...object }, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A value meant to break a field: the wrong type, a huge or exotic string, an unknown buried inside. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme-composite", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\uFEFF", "\uD800", "x".repeat(70_000), "1e400", "-1", "0", "01", "NaN", "https://", unknownValue, "[object Object]"),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 53, 1e308, Number.MAX_SAFE_INTEGER + 2, true, false, null),
  fc.jsonValue().map((value) => [value, unknownValue]),
  fc.jsonValue().map((value) => ({ nested: value, deeper: { unknown: unknownValue } })),
  fc.constantFrom(...prototypeKeys).map((key) => withOwnKey({}, key, { polluted: true })),
);

/** A valid input with a few of its fields (or new keys, prototype keys among them) changed. */
function mutationOf(subject: Subject): fc.Arbitrary<Record<string, unknown>> {
  const base = subject.valid();
  const key = fc.oneof(fc.constantFrom(...Object.keys(base)), fc.constantFrom(...prototypeKeys), fc.string({ maxLength: 12 }));
  return fc.array(fc.tuple(key, fc.option(hostileValue, { nil: undefined })), { minLength: 1, maxLength: 4 }).map((changes) => {
    let input: Record<string, unknown> = { ...base };
    for (const [field, value] of changes) {
      // undefined: the field left out, as the SDK sends an unset input.
      if (value === undefined) delete input[field];
      else input = withOwnKey(input, field, value);
    }
    return input;
  });
}

/** Any JSON object at all, prototype keys included. */
const randomObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
    fc.option(fc.constantFrom(...prototypeKeys), { nil: undefined }),
    hostileValue,
  )
  .map(([object, prototypeKey, value]) => (prototypeKey ? withOwnKey(object, prototypeKey, value) : object));

/** The failure's property is a field of the resource, a dotted path into one, or a key the input gave that is no field. */
function namesAField({ property, reason }: { property: string; reason: string }, fields: readonly string[], given: Record<string, unknown>): boolean {
  if (fields.includes(property.split(".")[0]) || Object.hasOwn(given, property)) return true;
  // A nested field, or a field with a long value, is named in the reason, with its value cut.
  return / \(given .*\)$/s.test(reason) && [...fields, ...Object.keys(given)].some((field) => reason.includes(`: ${field}`));
}

/** The resource's fields, from the refusal of an unknown one ("...; the fields are: a, b"). */
async function fieldsOf(subject: Subject): Promise<string[]> {
  const result = await subject.module.check({}, { ...subject.valid(), notAField: 1, __provider: providerCode });
  const reason = result.failures?.find((failure) => failure.property === "notAField")?.reason ?? "";
  const fields = /the fields are: (.*)$/.exec(reason)?.[1].split(", ");
  assert.ok(fields?.length, `${subject.name}: no field list in ${JSON.stringify(result.failures)}`);
  return fields;
}

describe("reliability: hostile inputs to every resource's check", function () {
  this.timeout(300_000);
  let emulator: RunningEmulator;

  before(async () => {
    emulator = await startEmulator({ port: 0, rateLimit: 0 });
    // The emulator's rate limit is off: the provider's own limiter need not pace the round trips.
    useStackConfig(
      configOf({
        "crm:apiUrl": emulator.crmUrl,
        "crm:apiToken": emulator.apiToken,
        "chat:apiUrl": emulator.chatUrl,
        "chat:apiToken": emulator.apiToken,
        "crm:requestsPerSecond": "0",
        "chat:requestsPerSecond": "0",
      }),
    );
    parents = await makeParents(emulator);
  });
  after(async () => emulator?.close());

  for (const subject of subjects) {
    it(`${subject.name}: ${checkRuns} inputs; check never throws, names fields, and is idempotent`, async () => {
      const fields = await fieldsOf(subject);
      const { module } = subject;
      const started = Date.now();
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof(mutationOf(subject), randomObject), async (input) => {
          const sent = { ...input, __provider: providerCode };
          const result = await module.check({}, sent);
          for (const failure of result.failures ?? []) {
            assert.ok(namesAField(failure, fields, input), `failure property ${JSON.stringify(failure.property)}: ${failure.reason}`);
            assert.ok(failure.reason.startsWith(subject.name), `the reason names the resource: ${failure.reason}`);
          }
          if (result.failures?.length) return;
          accepted++;
          const inputs = asHostSends(result.inputs!);
          const again = await module.check({}, inputs);
          assert.equal(again.failures, undefined, `the checked inputs fail a second check: ${JSON.stringify(again.failures)}`);
          assert.deepEqual(asHostSends(again.inputs!), inputs, "checking the checked inputs changed them");
        }),
        { numRuns: checkRuns, seed: 20261122 },
      );
      console.log(`      ${checkRuns} inputs (${accepted} accepted) in ${Date.now() - started} ms`);
      assert.ok(accepted > 0, "no generated input passed check: idempotence was never tried");
    });
  }

  for (const subject of subjects.filter((candidate) => candidate.roundTrip)) {
    it(`${subject.name}: ${subject.runs} generated valid inputs; read after ${subject.roundTrip} equals what it wrote`, async () => {
      const { module } = subject;
      const withProvider = (props: Record<string, unknown>) => ({ ...props, __provider: providerCode });
      const text = fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 });
      const generated = fc.record(Object.fromEntries(subject.textFields.map((field) => [field, text])));
      /** The one object an `update` round trip writes, with its latest outputs. */
      const updated: { id: string; outs: Record<string, unknown> } | undefined =
        subject.roundTrip === "update"
          ? { outs: {}, ...asHostSends(await module.create((await module.check({}, withProvider(subject.valid()))).inputs!)) }
          : undefined;
      let written = 0;
      await fc.assert(
        fc.asyncProperty(generated, async (changes) => {
          const result = await module.check({}, withProvider({ ...subject.valid(), ...changes }));
          // Only valid inputs are written: text the schema refuses is the check tests' business.
          if (result.failures?.length) return;
          const inputs = asHostSends(result.inputs!);
          const { id, outs } = updated
            ? { id: updated.id, outs: asHostSends(await module.update(updated.id, withProvider(updated.outs), inputs)).outs }
            : asHostSends(await module.create(inputs));
          try {
            const read = asHostSends(await module.read(id, withProvider(outs)));
            assert.deepEqual(read.props, outs, `read's props differ from ${subject.roundTrip}'s outputs`);
            const diff = await module.diff(id, withProvider({ ...read.props, ...read.inputs }), inputs);
            assert.equal(diff.changes, false, `what was read differs from the inputs: ${JSON.stringify(diff)}`);
          } finally {
            if (!updated) await module.delete(id, withProvider(outs));
          }
          if (updated) updated.outs = outs;
          written++;
        }),
        { numRuns: subject.runs, seed: 20261122 },
      );
      if (updated) await module.delete(updated.id, withProvider(updated.outs));
      console.log(`      ${written} objects written and read back`);
      assert.ok(written >= subject.runs / 2, `only ${written} of ${subject.runs} generated inputs were valid`);
    });
  }
});
