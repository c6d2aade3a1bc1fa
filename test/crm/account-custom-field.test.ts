import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-custom-field";
import { unknownValue } from "../../provider/kit/inputs";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, requestCount } from "../../scripts/harness/emulator";
import { checked, createAndVerify, providerCode, updateAndVerify } from "../support/provider-steps";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource, emptyAccount } from "../support/describe-resource";

/** One field of each type, with options where the type needs them and a default of its form. */
const samples: Array<{ fieldType: string; fieldOptions?: string[]; fieldDefault: unknown; fieldDefaultCurrency?: string }> = [
  { fieldType: "text", fieldDefault: "plain" },
  { fieldType: "textarea", fieldDefault: "two\nlines" },
  { fieldType: "hidden", fieldDefault: "internal" },
  { fieldType: "dropdown", fieldOptions: ["S", "M", "L"], fieldDefault: "M" },
  { fieldType: "radio", fieldOptions: ["yes", "no"], fieldDefault: "no" },
  { fieldType: "multiselect", fieldOptions: ["a", "b", "c"], fieldDefault: ["a", "c"] },
  { fieldType: "checkbox", fieldOptions: ["x", "y"], fieldDefault: ["y"] },
  { fieldType: "date", fieldDefault: "2027-03-31" },
  { fieldType: "datetime", fieldDefault: "2027-03-31 10:15:00" },
  { fieldType: "currency", fieldDefault: 10050, fieldDefaultCurrency: "EUR" },
  { fieldType: "number", fieldDefault: 12.5 },
];

/** Each type's round trips: required inputs only, with a default, and with every optional input; each its own label. */
const combinations = samples.flatMap((sample) => {
  const options = sample.fieldOptions ? { fieldOptions: sample.fieldOptions } : {};
  const everyOption = {
    isFormVisible: true,
    isRequired: true,
    displayOrder: 7,
    ...(sample.fieldDefaultCurrency ? { fieldDefaultCurrency: sample.fieldDefaultCurrency } : {}),
  };
  return [
    { fieldLabel: `${sample.fieldType} 1`, fieldType: sample.fieldType, ...options },
    { fieldLabel: `${sample.fieldType} 2`, fieldType: sample.fieldType, ...options, fieldDefault: sample.fieldDefault },
    { fieldLabel: `${sample.fieldType} 3`, fieldType: sample.fieldType, ...options, fieldDefault: sample.fieldDefault, ...everyOption },
  ];
});
/** Numbers the labels of adopted fields: a label stays claimed in the provider process after its create. */
let serial = 0;

describeResource(
  {
    type: "crm.AccountCustomField",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const declared = { fieldLabel: `Adopted ${++serial}`, fieldType: "dropdown", fieldOptions: ["S", "M"], fieldDefault: "S", isFormVisible: true };
        const metum = { ...declared, isFormVisible: 1 };
        return {
          id: (await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: metum })).body.accountCustomFieldMetum.id,
          inputs: declared,
        };
      },
      changes: { fieldOptions: ["S", "M", "L"], fieldDefault: "L", isRequired: true },
      updateRoute: "PUT /api/3/accountCustomFieldMeta/:id",
    },
    badInputs: [
      [{ fieldType: "text" }, "fieldLabel", /^crm\.AccountCustomField: fieldLabel is required: the field's label$/],
      [{ fieldLabel: " Tier", fieldType: "text" }, "fieldLabel", /fieldLabel must not start or end with spaces/],
      [{ fieldLabel: "   ", fieldType: "text" }, "fieldLabel", /fieldLabel must not be blank$/],
      [
        { fieldLabel: "T", fieldType: "colour" },
        "fieldType",
        /^crm\.AccountCustomField "T": fieldType must be one of text, textarea, date, datetime, dropdown, multiselect, radio, checkbox, hidden, currency, number$/,
      ],
      [{ fieldLabel: "T", fieldType: "dropdown" }, "fieldOptions", /fieldOptions is required for a dropdown field/],
      [
        { fieldLabel: "T", fieldType: "text", fieldOptions: ["a"] },
        "fieldOptions",
        /fieldOptions is only for dropdown, multiselect, radio and checkbox fields, not text/,
      ],
      [{ fieldLabel: "T", fieldType: "radio", fieldOptions: [] }, "fieldOptions", /fieldOptions must hold at least one option/],
      [{ fieldLabel: "T", fieldType: "radio", fieldOptions: ["a", "a"] }, "fieldOptions", /fieldOptions must not repeat an option/],
      [
        { fieldLabel: "T", fieldType: "radio", fieldOptions: ["a||b"] },
        "fieldOptions.0",
        /fieldOptions\[0\] must not hold "\|\|", which the service puts between options \(given "a\|\|b"\)$/,
      ],
      [
        { fieldLabel: "T", fieldType: "radio", fieldOptions: ["a", "b"], fieldDefault: "c" },
        "fieldDefault",
        /fieldDefault must be among the field's options \("a", "b"\); "c" is not/,
      ],
      [
        { fieldLabel: "T", fieldType: "multiselect", fieldOptions: ["a"], fieldDefault: 3 },
        "fieldDefault",
        /fieldDefault must be a list of the field's options/,
      ],
      [{ fieldLabel: "T", fieldType: "text", fieldDefault: ["a"] }, "fieldDefault", /fieldDefault must be a string for a text field/],
      [{ fieldLabel: "T", fieldType: "date", fieldDefault: "2027-02-30" }, "fieldDefault", /fieldDefault must be a date as YYYY-MM-DD/],
      [{ fieldLabel: "T", fieldType: "date", fieldDefault: "2027-03-31 10:00:00" }, "fieldDefault", /fieldDefault must be a date as YYYY-MM-DD/],
      [{ fieldLabel: "T", fieldType: "datetime", fieldDefault: "tomorrow" }, "fieldDefault", /fieldDefault must be a date and time as YYYY-MM-DD HH:MM:SS/],
      [{ fieldLabel: "T", fieldType: "currency", fieldDefault: 100.5 }, "fieldDefault", /fieldDefault must be a whole amount in minor units/],
      [{ fieldLabel: "T", fieldType: "number", fieldDefault: "many" }, "fieldDefault", /fieldDefault must be a number for a number field/],
      [{ fieldLabel: "T", fieldType: "text", fieldDefault: { a: 1 } }, "fieldDefault", /fieldDefault must be a string, a number .* or a list of strings/],
      [
        { fieldLabel: "T", fieldType: "text", fieldDefaultCurrency: "USD" },
        "fieldDefaultCurrency",
        /fieldDefaultCurrency is only for currency fields, not text/,
      ],
      [
        { fieldLabel: "T", fieldType: "currency", fieldDefaultCurrency: "dollars" },
        "fieldDefaultCurrency",
        /fieldDefaultCurrency must be a 3-letter currency code such as USD/,
      ],
      [{ fieldLabel: "T", fieldType: "text", isRequired: "yes" }, "isRequired", /isRequired must be true or false/],
      [{ fieldLabel: "T", fieldType: "text", displayOrder: 1.5 }, "displayOrder", /displayOrder must be a whole number from 0/],
      [{ fieldLabel: "T", fieldType: "text", displayOrder: -1 }, "displayOrder", /displayOrder must be a whole number from 0/],
      [{ fieldLabel: "T", fieldType: "text", label: "x" }, "label", /label is not a field of this resource; the fields are: fieldLabel, fieldType/],
    ],
    roundTrip: {
      inputs: combinations,
      title: ", every type and combination of optional inputs, and diffs no change",
      created: (created, inputs) => {
        assert.deepEqual(created.outs.fieldDefault, inputs.fieldDefault);
        assert.equal(created.outs.displayOrder, inputs.displayOrder);
      },
      // Deleted, the field frees its label for the test that sends these inputs again.
      then: (created) => provider.delete(created.id, created.outs),
    },
  },
  (service) => {
    const emulator = () => service.emulator;
    describe("check", () => {
      it("normalizes inputs: flags default to false, unset members stay unset", async () => {
        assert.deepEqual(await checked(provider, { fieldLabel: "Tier", fieldType: "text" }), {
          fieldLabel: "Tier",
          fieldType: "text",
          isFormVisible: false,
          isRequired: false,
          __neverCompared: { adoptExisting: false },
          __provider: providerCode,
        });
      });

      it("puts each default in its type's one form", async () => {
        const cases: Array<[Record<string, unknown>, unknown]> = [
          [{ fieldType: "currency", fieldDefault: "10050" }, 10050],
          [{ fieldType: "number", fieldDefault: "12.50" }, 12.5],
          [{ fieldType: "date", fieldDefault: "2027-03-31 00:00:00" }, "2027-03-31"],
          [{ fieldType: "datetime", fieldDefault: "2027-03-31" }, "2027-03-31 00:00:00"],
          [{ fieldType: "datetime", fieldDefault: "2027-03-31T05:15:00-05:00" }, "2027-03-31 10:15:00"],
          [{ fieldType: "multiselect", fieldOptions: ["a", "b", "c"], fieldDefault: "||a||c||" }, ["a", "c"]],
        ];
        for (const [inputs, expected] of cases) {
          assert.deepEqual((await checked(provider, { fieldLabel: "F", ...inputs })).fieldDefault, expected, JSON.stringify(inputs));
        }
        assert.equal((await checked(provider, { fieldLabel: "F", fieldType: "currency", fieldDefaultCurrency: "eur" })).fieldDefaultCurrency, "EUR");
      });

      it("lets values unknown in a preview through, and skips the rules across fields until they are known", async () => {
        const inputs = await checked(provider, { fieldLabel: "T", fieldType: unknownValue, fieldOptions: ["a"], fieldDefault: "b" });
        assert.equal(inputs.fieldType, unknownValue);
        assert.equal(inputs.fieldDefault, "b");
      });
    });

    it("updates each updatable input in place, clears a default and stops managing the order", async () => {
      const base = { fieldLabel: "Size", fieldType: "dropdown", fieldOptions: ["S", "M"], fieldDefault: "S", displayOrder: 3 };
      const { id, outs } = await createAndVerify(provider, base);
      let current = outs;
      const steps: Array<Record<string, unknown>> = [
        { ...base, fieldLabel: "T-shirt size" },
        { ...base, fieldOptions: ["S", "M", "L"] },
        { ...base, fieldDefault: "M" },
        { ...base, fieldDefault: undefined },
        { ...base, isFormVisible: true },
        { ...base, isRequired: true },
        { ...base, displayOrder: 9 },
      ];
      for (const step of steps) current = await updateAndVerify(provider, id, current, step);
      const unordered = await updateAndVerify(provider, id, current, { ...base, displayOrder: undefined });
      assert.equal("displayOrder" in unordered, false);
      const held = (await emulatorCall(emulator(), "GET", `/api/3/accountCustomFieldMeta/${id}`)).body.accountCustomFieldMetum;
      assert.equal(held.displayOrder, 9, "removing displayOrder leaves the position alone");
    });

    it("replaces the field when its type or default currency changes, deleting the old first while the label stays", async () => {
      const olds = { fieldLabel: "Price", fieldType: "currency", fieldDefaultCurrency: "USD", isFormVisible: false, isRequired: false };
      const diffTo = async (change: Record<string, unknown>) => provider.diff("1", olds, await checked(provider, { ...olds, ...change }));
      assert.deepEqual(await diffTo({ fieldType: "number", fieldDefaultCurrency: undefined }), {
        changes: true,
        replaces: ["fieldType", "fieldDefaultCurrency"],
        deleteBeforeReplace: true,
      });
      assert.deepEqual(await diffTo({ fieldDefaultCurrency: "eur", fieldLabel: "price" }), {
        changes: true,
        replaces: ["fieldDefaultCurrency"],
        deleteBeforeReplace: true,
      });
      assert.equal((await diffTo({ fieldType: "number", fieldDefaultCurrency: undefined, fieldLabel: "Amount" })).deleteBeforeReplace, false);
      assert.equal((await diffTo({ fieldDefaultCurrency: "usd", adoptExisting: true })).changes, false);
    });

    describe("adoption by label", () => {
      const existing = async (metum: Record<string, unknown>) =>
        (await emulatorCall(emulator(), "POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: metum })).body.accountCustomFieldMetum;

      it("refuses a label that exists, naming the field and the opt-in, and changes nothing", async () => {
        const field = await existing({ fieldLabel: "Tier", fieldType: "text", fieldDefault: "gold" });
        await assert.rejects(provider.create(await checked(provider, { fieldLabel: "tier", fieldType: "text" })), (error: Error) => {
          assert.match(
            error.message,
            new RegExp(
              `^crm\\.AccountCustomField "tier": the field label "tier" is taken by the existing object ${field.id}; choose another label, or, only if no stack manages that object, set adoptExisting: true`,
            ),
          );
          return true;
        });
        assert.equal((await emulatorCall(emulator(), "GET", "/api/3/accountCustomFieldMeta")).body.accountCustomFieldMeta.length, 1);
      });

      it("takes the field over with adoptExisting, bringing it in line with the inputs", async () => {
        const field = await existing({ fieldLabel: "Tier", fieldType: "text", fieldDefault: "gold", isRequired: 1 });
        const adopted = await provider.create(await checked(provider, { fieldLabel: "Tier", fieldType: "text", isFormVisible: true, adoptExisting: true }));
        assert.equal(adopted.id, field.id);
        assert.deepEqual(adopted.outs, { fieldLabel: "Tier", fieldType: "text", isFormVisible: true, isRequired: false });
        const held = (await emulatorCall(emulator(), "GET", `/api/3/accountCustomFieldMeta/${field.id}`)).body.accountCustomFieldMetum;
        assert.deepEqual([held.fieldDefault, held.isRequired, held.isFormVisible], [null, 0, 1]);
      });

      it("does not adopt a field of another type, which an update cannot change", async () => {
        const field = await existing({ fieldLabel: "Since", fieldType: "text" });
        await assert.rejects(provider.create(await checked(provider, { fieldLabel: "Since", fieldType: "date", adoptExisting: true })), (error: Error) => {
          assert.match(
            error.message,
            new RegExp(`existing object ${field.id}, whose fieldType is "text", which an update cannot change; declare fieldType "text"`),
          );
          return true;
        });
      });

      it("refuses a second resource of the program with the same label before any request", async () => {
        await provider.create(await checked(provider, { fieldLabel: "Twin", fieldType: "text" }));
        const before = await requestCount(emulator());
        await assert.rejects(
          provider.create(await checked(provider, { fieldLabel: "twin", fieldType: "text", adoptExisting: true })),
          /two resources of this program declare the field label "twin"/,
        );
        assert.equal(await requestCount(emulator()), before);
      });

      it("finds a label beyond the first page of definitions", async () => {
        for (let i = 0; i < 101; i++) await existing({ fieldLabel: `Bulk ${i}`, fieldType: "text" });
        await assert.rejects(provider.create(await checked(provider, { fieldLabel: "Bulk 100", fieldType: "text" })), /is taken by the existing object 101/);
      });
    });

    it("sees a change out of band, and a deletion out of band as gone", async () => {
      const { id, outs } = await createAndVerify(provider, { fieldLabel: "Drifting", fieldType: "text" });
      await emulatorCall(emulator(), "PUT", `/api/3/accountCustomFieldMeta/${id}`, { accountCustomFieldMetum: { fieldLabel: "Drifted", isRequired: 1 } });
      const read = await provider.read(id, outs);
      assert.deepEqual([read.props?.fieldLabel, read.props?.isRequired], ["Drifted", true]);
      assert.equal((await provider.diff(id, read.props!, await checked(provider, { fieldLabel: "Drifting", fieldType: "text" }))).changes, true);
      await emulatorCall(emulator(), "DELETE", `/api/3/accountCustomFieldMeta/${id}`);
      assert.deepEqual(await provider.read(id, outs), {});
      await provider.delete(id, outs);
    });
  },
);

describe("crm.AccountCustomField against the real service's answers", () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());
  const serve = async (script: Parameters<typeof startScriptedServer>[0]) => {
    server = await startScriptedServer(script);
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
  };

  it("reads numeric strings, 0/1 flags, `||a||b||`, dates with a time and lower-case codes as what was declared", async () => {
    const answers: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [
        { fieldType: "multiselect", fieldOptions: "||a||b||", fieldDefault: "||a||b||", isFormVisible: "1", isRequired: 0, displayOrder: "4" },
        { fieldType: "multiselect", fieldOptions: ["a", "b"], fieldDefault: ["a", "b"], isFormVisible: true, isRequired: false, displayOrder: 4 },
      ],
      [
        { fieldType: "currency", fieldDefault: "10050", fieldDefaultCurrency: "eur", isFormVisible: true, isRequired: "0", displayOrder: 1 },
        { fieldType: "currency", fieldDefault: 10050, fieldDefaultCurrency: "EUR", isFormVisible: true, isRequired: false, displayOrder: 1 },
      ],
      [
        {
          fieldType: "date",
          fieldOptions: null,
          fieldDefault: "2027-03-31 00:00:00",
          fieldDefaultCurrency: null,
          isFormVisible: 0,
          isRequired: 0,
          displayOrder: 2,
        },
        { fieldType: "date", fieldDefault: "2027-03-31", isFormVisible: false, isRequired: false, displayOrder: 2 },
      ],
      [
        { fieldType: "datetime", fieldDefault: "2027-03-31T10:15:00+00:00", isFormVisible: 0, isRequired: 0, displayOrder: 2 },
        { fieldType: "datetime", fieldDefault: "2027-03-31 10:15:00", isFormVisible: false, isRequired: false, displayOrder: 2 },
      ],
      [
        { fieldType: "number", fieldDefault: "12.50", fieldOptions: [], isFormVisible: 0, isRequired: 0, displayOrder: 2 },
        { fieldType: "number", fieldDefault: 12.5, isFormVisible: false, isRequired: false, displayOrder: 2 },
      ],
    ];
    for (const [answer, state] of answers) {
      await serve((_req, res) =>
        sendJson(res, 200, {
          accountCustomFieldMetum: {
            id: "4",
            fieldLabel: "Quirky",
            ...answer,
            personalization: "%QUIRKY%",
            knownFieldId: null,
            hideFieldFlag: 0,
            createdTimestamp: "2027-03-31T10:15:00+00:00",
            updatedTimestamp: "2027-03-31 10:15:00",
          },
        }),
      );
      const read = await provider.read("4", { fieldLabel: "Quirky", displayOrder: 1, fieldDefaultCurrency: "X" });
      assert.deepEqual(read.props, { fieldLabel: "Quirky", ...state }, JSON.stringify(answer));
      await server.close();
    }
  });

  it("recovers a create whose answer was lost by finding the label, and sends it once", async () => {
    let posts = 0;
    await serve((req, res) => {
      if (req.method === "POST") {
        posts++;
        res.socket?.destroy();
        return;
      }
      // The definition list has no meta: the walk ends on the short page.
      const fields = posts ? [{ id: "8", fieldLabel: "Lost", fieldType: "text", isFormVisible: 0, isRequired: 0, displayOrder: 1 }] : [];
      sendJson(res, 200, { accountCustomFieldMeta: fields });
    });
    const created = await provider.create({ fieldLabel: "Lost", fieldType: "text", isFormVisible: false, isRequired: false, adoptExisting: false });
    assert.deepEqual([created.id, posts], ["8", 1]);
  });

  it("fails a write the service answered but did not take, naming the field", async () => {
    await serve((_req, res) =>
      sendJson(res, 200, { accountCustomFieldMetum: { id: "4", fieldLabel: "Old", fieldType: "text", isFormVisible: 0, isRequired: 0 } }),
    );
    const news = { fieldLabel: "New", fieldType: "text", isFormVisible: false, isRequired: false, adoptExisting: false };
    await assert.rejects(
      provider.update("4", { fieldLabel: "Old" }, news),
      /the service accepted the write but did not take fieldLabel \(sent "New", service has "Old"\)/,
    );
    assert.deepEqual(JSON.parse(server.requests[0].body), { accountCustomFieldMetum: { fieldLabel: "New", isFormVisible: false, isRequired: false } });
  });
});
