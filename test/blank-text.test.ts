// Every required text input of every registered resource refuses blank text ("" and
// only spaces) in check, with the one message "must not be blank" and no other. The
// inputs are found in each resource's schema and blanked in its example input
// (test/support/resource-examples.ts), so a new resource is covered once registered.

import assert from "node:assert/strict";
import { z } from "zod";
import { resources, typeOf } from "../provider/registry";
import { emulatorForProvider, requestCount, type RunningEmulator } from "../scripts/harness/emulator";
import { dynamicProviderOf, providerCode } from "./support/provider-steps";
import { makeParents, type Parents, resourceExamples } from "./support/resource-examples";

type Path = Array<string | number>;

/** What a schema judges first, under its refinements, transforms and pipelines. */
function innermost(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodEffects) return innermost(schema.innerType());
  if (schema instanceof z.ZodPipeline) return innermost(schema._def.in);
  return schema;
}

/** Where every valid input holds text: the required strings of the schema's objects, and of the first element of its required lists. */
function requiredTextPaths(schema: z.ZodTypeAny, path: Path = []): Path[] {
  if (schema.isOptional()) return [];
  const inner = innermost(schema);
  if (inner instanceof z.ZodObject)
    return Object.entries(inner.shape as z.ZodRawShape).flatMap(([field, member]) => requiredTextPaths(member, [...path, field]));
  if (inner instanceof z.ZodArray) return requiredTextPaths(inner.element, [...path, 0]);
  return inner instanceof z.ZodString ? [path] : [];
}

/** A copy of `input` holding `value` at `path`, as the SDK sends it (undefined members dropped). */
function withValueAt(input: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(input));
  const holder = path.slice(0, -1).reduce((object, key) => object[key], copy);
  holder[path[path.length - 1]] = value;
  return copy;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const subjects = resources.map((resource) => ({
  type: typeOf(resource),
  module: dynamicProviderOf(resource),
  example: resourceExamples[typeOf(resource)],
  textPaths: requiredTextPaths(resource.definition.inputSchema),
}));

describe("blank required text, in every resource's check", () => {
  let emulator: RunningEmulator;
  let parents: Parents;
  before(async () => {
    emulator = await emulatorForProvider();
    parents = await makeParents(emulator);
  });
  after(async () => emulator.close());

  it("finds the required text inputs in the schemas, nested ones included", () => {
    const found = subjects.flatMap(({ type, textPaths }) => textPaths.map((path) => `${type} ${path.join(".")}`));
    for (const input of [
      "crm.CalendarFeed title",
      "crm.Address companyName",
      "crm.Message fromname",
      "crm.AccountNote note",
      "crm.ContactSync contacts.0.email",
    ]) {
      assert.ok(found.includes(input), `${input} is not among ${found.join(", ")}`);
    }
  });

  for (const { type, module, example, textPaths } of subjects) {
    for (const path of textPaths) {
      const field = path.join(".");
      it(`${type}: ${field} empty or only spaces "must not be blank", without a request`, async () => {
        const before = await requestCount(emulator);
        for (const blank of ["", "   "]) {
          const { failures } = await module.check({}, { ...withValueAt(example.inputs(parents, 1), path, blank), __provider: providerCode });
          // A nested field is reported on the resource, the reason naming it and its value (the CLI shows a nested value as <nil>).
          const nested = path.length > 1;
          const named = path.map((key, index) => (typeof key === "number" ? `[${key}]` : index ? `.${key}` : key)).join("");
          assert.deepEqual(
            failures?.map((failure) => failure.property),
            [nested ? "" : field],
            `${JSON.stringify(blank)}: ${JSON.stringify(failures)}`,
          );
          const given = nested ? ` \\(given ${escaped(JSON.stringify(blank))}\\)` : "";
          assert.match(failures![0].reason, new RegExp(`^${escaped(type)}\\b[^:]*: ${escaped(named)} must not be blank${given}$`));
        }
        assert.equal(await requestCount(emulator), before);
      });
    }
  }
});
