import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-custom-field-value";
import { unknownValue } from "../../provider/kit/inputs";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorStats, requestCount, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked, configuration, createAndVerify, providerCode, updateAndVerify } from "../support/provider-steps";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource } from "../support/describe-resource";

/** A field of each type and a value in its one form. */
const samples: Array<{ fieldType: string; fieldOptions?: string[]; fieldValue: unknown; changed: unknown }> = [
  { fieldType: "text", fieldValue: "gold", changed: "silver" },
  { fieldType: "textarea", fieldValue: "two\nlines", changed: "three\nlines\nnow" },
  { fieldType: "hidden", fieldValue: "internal", changed: "external" },
  { fieldType: "dropdown", fieldOptions: ["S", "M", "L"], fieldValue: "M", changed: "L" },
  { fieldType: "radio", fieldOptions: ["yes", "no"], fieldValue: "yes", changed: "no" },
  { fieldType: "multiselect", fieldOptions: ["a", "b", "c"], fieldValue: ["a", "c"], changed: ["b"] },
  { fieldType: "checkbox", fieldOptions: ["x", "y"], fieldValue: ["y"], changed: ["x", "y"] },
  { fieldType: "date", fieldValue: "2027-03-31", changed: "2028-02-29" },
  { fieldType: "datetime", fieldValue: "2027-03-31 10:15:00", changed: "2027-04-01 00:00:00" },
  { fieldType: "currency", fieldValue: 10050, changed: 99 },
  { fieldType: "number", fieldValue: 12.5, changed: -3 },
];

/** The objects each test's values point at: a new account, and a new field of each type. */
async function accountWithFields(emulator: RunningEmulator, serial: number) {
  const parents: Record<string, string> = {
    account: (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: `Acme ${serial}` } })).body.account.id,
  };
  for (const { fieldType, fieldOptions } of samples) {
    const metum = {
      fieldLabel: `${fieldType} ${serial}`,
      fieldType,
      ...(fieldOptions ? { fieldOptions } : {}),
      ...(fieldType === "currency" ? { fieldDefaultCurrency: "usd" } : {}),
    };
    parents[fieldType] = (
      await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: metum })
    ).body.accountCustomFieldMetum.id;
  }
  return parents;
}

/** The sample whose field a value's inputs name. */
const sampleOf = (parents: Record<string, string>, inputs: Record<string, unknown>) =>
  samples.find((sample) => parents[sample.fieldType] === inputs.customFieldId)!;

let serial = 0;

describeResource(
  {
    type: "crm.AccountCustomFieldValue",
    provider,
    // A new account and new fields for each test: values are claimed by account and field for the whole provider process.
    beforeEach: ({ emulator }) => accountWithFields(emulator, ++serial),
    adoption: {
      // Stored as the real service stores multi-values, `||a||c||`.
      existing: async ({ emulator, parents }) => {
        const datum = { customerAccountId: parents.account, customFieldId: parents.multiselect, fieldValue: "||a||c||" };
        const id = (await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldData", { accountCustomFieldDatum: datum })).body.accountCustomFieldDatum.id;
        return { id, inputs: { accountId: parents.account, customFieldId: parents.multiselect, fieldValue: ["a", "c"] } };
      },
      changes: { fieldValue: ["b"] },
      updateRoute: "PUT /api/3/accountCustomFieldData/:id",
    },
    badInputs: [
      [
        { accountId: "acme", fieldValue: { amount: 1 }, fieldCurrency: "dollars", value: 1 },
        "accountId",
        /^crm\.AccountCustomFieldValue: accountId must be the id of the account, such as a crm\.Account's id: digits/,
      ],
      [
        { accountId: "acme", fieldValue: { amount: 1 }, fieldCurrency: "dollars", value: 1 },
        "customFieldId",
        /customFieldId is required: the id of the custom field/,
      ],
      [
        { accountId: "acme", fieldValue: { amount: 1 }, fieldCurrency: "dollars", value: 1 },
        "fieldValue",
        /fieldValue must be a string, a number \(currency in minor units, number\) or a list of strings/,
      ],
      [{ accountId: "acme", fieldValue: { amount: 1 }, fieldCurrency: "dollars", value: 1 }, "fieldCurrency", /fieldCurrency must be a 3-letter currency code/],
      [
        { accountId: "acme", fieldValue: { amount: 1 }, fieldCurrency: "dollars", value: 1 },
        "value",
        /value is not a field of this resource; the fields are: accountId, customFieldId, fieldValue, fieldCurrency, adoptExisting/,
      ],
      [{ accountId: "1", customFieldId: "0", fieldValue: "x" }, "customFieldId", /must be the id of the custom field/],
      [{ accountId: "1", customFieldId: "2" }, "fieldValue", /fieldValue is required: the value, in the form of the field's type/],
    ],
    roundTrip: {
      // A value of each type in its one form, then changed in place; an option field's value with the options given
      // as a program gives them (check-only: never an output, never compared).
      inputs: (parents) =>
        samples.map(({ fieldType, fieldOptions, fieldValue }) => ({
          accountId: parents.account,
          customFieldId: parents[fieldType],
          fieldValue,
          ...(fieldOptions ? { fieldOptions } : {}),
        })),
      title: ", every type, and diffs no change",
      created: (created, { fieldOptions: _checkOnly, ...inputs }, { parents }) =>
        assert.deepEqual(created.outs, { ...inputs, fieldType: sampleOf(parents, inputs).fieldType }),
      then: async (created, inputs, { parents }) => {
        await updateAndVerify(provider, created.id, created.outs, { ...inputs, fieldValue: sampleOf(parents, inputs).changed });
      },
    },
  },
  (service) => {
    const emulator = () => service.emulator;
    const valueRequest = (fieldType: string, fieldValue: unknown, more: Record<string, unknown> = {}) => ({
      accountId: service.parents.account,
      customFieldId: service.parents[fieldType],
      fieldValue,
      ...more,
    });
    const posts = async () => (await emulatorStats(emulator())).byRoute["POST /api/3/accountCustomFieldData"] ?? 0;

    describe("check", () => {
      it("keeps ids as strings (numbers taken too) and currency codes in capitals", async () => {
        assert.deepEqual(await checked(provider, { accountId: 12, customFieldId: "3", fieldValue: ["a"], fieldCurrency: "eur" }), {
          accountId: "12",
          customFieldId: "3",
          fieldValue: ["a"],
          fieldCurrency: "EUR",
          __neverCompared: { adoptExisting: false },
          __provider: providerCode,
        });
      });

      it("stores the field's options with the inputs never compared, so that a refresh, which cannot read them back, shows no change", async () => {
        const inputs = await checked(provider, { accountId: "12", customFieldId: "3", fieldValue: "Gold", fieldOptions: ["Gold", "Silver"] });
        assert.equal(inputs.fieldOptions, undefined);
        assert.deepEqual(inputs.__neverCompared, { adoptExisting: false, fieldOptions: ["Gold", "Silver"] });
      });

      it("lets an id unknown in a preview through", async () => {
        assert.equal((await checked(provider, { accountId: unknownValue, customFieldId: unknownValue, fieldValue: "x" })).accountId, unknownValue);
      });
    });

    describe("forms of a value", () => {
      it("currency with a currency code, set and changed in place; without one the field's default is left alone", async () => {
        const { id, outs } = await createAndVerify(provider, valueRequest("currency", 500, { fieldCurrency: "eur" }));
        assert.equal(outs.fieldCurrency, "EUR");
        const changed = await updateAndVerify(provider, id, outs, valueRequest("currency", 500, { fieldCurrency: "GBP" }));
        const unset = await updateAndVerify(provider, id, changed, valueRequest("currency", 600));
        assert.equal("fieldCurrency" in unset, false);
        assert.equal((await emulatorCall(emulator(), "GET", `/api/3/accountCustomFieldData/${id}`)).body.accountCustomFieldDatum.fieldCurrency, "GBP");
      });

      it("takes every accepted form of a value as the same value: dates, numeric strings, `||a||b||`, offsets", async () => {
        const forms: Array<[string, unknown, unknown]> = [
          ["date", "03/31/2027", "2027-03-31"],
          ["date", "2027/03/31", "2027-03-31"],
          ["datetime", "2027-03-31T05:15:00-05:00", "2027-03-31 10:15:00"],
          ["datetime", "2027-03-31T10:15:00+00:00", "2027-03-31 10:15:00"],
          ["currency", "10050", 10050],
          ["number", "12.50", 12.5],
          ["multiselect", "||a||c||", ["a", "c"]],
        ];
        for (const [fieldType, given, stored] of forms) {
          const inputs = valueRequest(fieldType, given);
          const { id, outs } = await createAndVerify(provider, inputs, { ...configuration(await checked(provider, inputs)), fieldValue: stored });
          await provider.delete(id, outs);
        }
      });
    });

    describe("values that do not fit the field's type", () => {
      it("are refused at create, naming the field and its type, before anything is written", async () => {
        const cases: Array<[Record<string, unknown>, RegExp]> = [
          [
            valueRequest("text", ["a"]),
            /^crm\.AccountCustomFieldValue of field "[^"]+" \(\d+\) for account "[^"]+" \(\d+\): fieldValue must be a string for a text field\.$/,
          ],
          [valueRequest("date", "31.03.2027"), /fieldValue must be a date as YYYY-MM-DD, YYYY\/MM\/DD or MM\/DD\/YYYY for a date field/],
          [valueRequest("currency", 100.5), /fieldValue must be a whole amount in minor units/],
          [valueRequest("number", "twelve"), /fieldValue must be a number for a number field/],
          [valueRequest("multiselect", []), /fieldValue must be a list of the field's options/],
          [valueRequest("text", "x", { fieldCurrency: "USD" }), /fieldCurrency is only for currency fields, not for a text field\.$/],
          [
            { accountId: service.parents.account, customFieldId: "999", fieldValue: "x" },
            /customFieldId 999 is not a custom account field of this CRM account/,
          ],
        ];
        const before = await posts();
        for (const [inputs, message] of cases)
          await assert.rejects(provider.create(await checked(provider, inputs)), (error: Error) => message.test(error.message));
        assert.equal(await posts(), before);
      });

      it("fail the diff, so a preview reports them, from the type the state holds", async () => {
        const { id, outs } = await createAndVerify(provider, valueRequest("date", "2027-03-31"));
        await assert.rejects(provider.diff(id, outs, await checked(provider, valueRequest("date", "soon"))), /fieldValue must be a date/);
      });
    });

    it("names each value's own account and field, and what to do, when the one read of their field fails", async () => {
      const field = service.parents.text;
      const accounts = [service.parents.account];
      for (const n of [2, 3, 4]) {
        accounts.push((await emulatorCall(emulator(), "POST", "/api/3/accounts", { account: { name: `Acme ${serial} ${n}` } })).body.account.id);
      }
      const values = await Promise.all(accounts.map((accountId) => checked(provider, { accountId, customFieldId: field, fieldValue: "gold" })));
      // A key the service refuses: the field's type, read once for all its values, cannot be read.
      useStackConfig(configOf({ "crm:apiUrl": service.proxy.url, "crm:apiToken": "not-the-key-0123456789", "crm:requestsPerSecond": "0" }));
      const requestsBefore = service.proxy.requests.length;
      const outcomes = await Promise.allSettled(values.map((inputs) => provider.create(inputs)));
      assert.deepEqual(
        service.proxy.requests.slice(requestsBefore).map((request) => `${request.method} ${request.path}`),
        [`GET /api/3/accountCustomFieldMeta/${field}`],
      );
      outcomes.forEach((outcome, n) => {
        assert.equal(outcome.status, "rejected");
        const expected = `^crm\\.AccountCustomFieldValue of field ${field} for account ${accounts[n]}: reading custom field ${field}: the service answered 403: Forbidden; the service refused the key in crm:apiToken: check that it is valid`;
        assert.match((outcome as PromiseRejectedResult).reason.message, new RegExp(expected));
      });
    });

    it("replaces the value when the account or the field changes", async () => {
      const inputs = { accountId: "1", customFieldId: "2", fieldValue: "x" };
      const olds = { ...inputs, fieldType: "text" };
      assert.deepEqual((await provider.diff("1", olds, await checked(provider, { ...inputs, accountId: "5" }))).replaces, ["accountId"]);
      // Another field's value is not judged by the old field's type.
      assert.deepEqual((await provider.diff("1", olds, await checked(provider, { ...inputs, customFieldId: "3", fieldValue: 5 }))).replaces, ["customFieldId"]);
    });

    it("adoptId: a value of another field fails clearly, naming the field it belongs to", async () => {
      const datum = { customerAccountId: service.parents.account, customFieldId: service.parents.text, fieldValue: "gold" };
      const value = (await emulatorCall(emulator(), "POST", "/api/3/accountCustomFieldData", { accountCustomFieldDatum: datum })).body.accountCustomFieldDatum;
      await assert.rejects(
        provider.create(await checked(provider, { ...valueRequest("hidden", "gold"), adoptId: value.id })),
        new RegExp(`the object ${value.id} named by adoptId, whose customFieldId is "${service.parents.text}", which an update cannot change`),
      );
    });

    describe("a value the account already has for the field", () => {
      const existing = async (fieldValue: unknown) =>
        (
          await emulatorCall(emulator(), "POST", "/api/3/accountCustomFieldData", {
            accountCustomFieldDatum: { customerAccountId: service.parents.account, customFieldId: service.parents.text, fieldValue },
          })
        ).body.accountCustomFieldDatum;

      it("is refused without adoptExisting, naming it", async () => {
        const value = await existing("gold");
        await assert.rejects(provider.create(await checked(provider, valueRequest("text", "silver"))), (error: Error) => {
          assert.match(
            error.message,
            new RegExp(
              `a value of field ${service.parents.text} for account ${service.parents.account} is taken by the existing object ${value.id}; remove that value first, or, only if no stack manages that object, set adoptExisting: true`,
            ),
          );
          return true;
        });
        assert.equal((await emulatorCall(emulator(), "GET", `/api/3/accountCustomFieldData/${value.id}`)).body.accountCustomFieldDatum.fieldValue, "gold");
      });

      it("is taken over with adoptExisting and set to the declared value", async () => {
        const value = await existing("gold");
        const adopted = await provider.create(await checked(provider, valueRequest("text", "silver", { adoptExisting: true })));
        assert.deepEqual([adopted.id, adopted.outs.fieldValue, adopted.outs.fieldType], [value.id, "silver", "text"]);
      });

      it("declared twice in one program is refused before any request", async () => {
        await provider.create(await checked(provider, valueRequest("text", "gold")));
        const before = await requestCount(emulator());
        await assert.rejects(provider.create(await checked(provider, valueRequest("text", "tin"))), /two resources of this program declare a value of field/);
        assert.equal(await requestCount(emulator()), before);
      });
    });

    it("sees a change out of band, and a deletion out of band (of the value or of its field) as gone", async () => {
      const { id, outs, inputs } = await createAndVerify(provider, valueRequest("multiselect", ["a"]));
      await emulatorCall(emulator(), "PUT", `/api/3/accountCustomFieldData/${id}`, { accountCustomFieldDatum: { fieldValue: "||b||c||" } });
      const read = await provider.read(id, outs);
      assert.deepEqual(read.props?.fieldValue, ["b", "c"]);
      assert.equal((await provider.diff(id, read.props!, inputs)).changes, true);
      await emulatorCall(emulator(), "DELETE", `/api/3/accountCustomFieldData/${id}`);
      assert.deepEqual(await provider.read(id, outs), {});
      await provider.delete(id, outs);

      const again = await provider.create(await checked(provider, valueRequest("date", "2027-01-01")));
      await emulatorCall(emulator(), "DELETE", `/api/3/accountCustomFieldMeta/${service.parents.date}`);
      assert.deepEqual(await provider.read(again.id, again.outs), {});
    });
  },
);

describe("crm.AccountCustomFieldValue against the real service's answers", () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  const metum = { accountCustomFieldMetum: { id: "3", fieldLabel: "Tags", fieldType: "multiselect", fieldOptions: ["a", "b"] } };
  /** The datum as the real service answers a write: numeric foreign keys, `||a||b||`, originalValue, +00:00 timestamps. */
  const datum = {
    id: "9",
    accountCustomFieldMetumId: 3,
    accountId: 12,
    customFieldId: 3,
    fieldValue: "||a||b||",
    originalValue: ["a", "b"],
    createdTimestamp: "2027-03-31T10:15:00+00:00",
    updatedTimestamp: "2027-03-31T10:15:00+00:00",
  };

  it("reads numeric foreign keys and `||a||b||` as declared, leaves originalValue out, and sends each value once", async () => {
    let posts = 0;
    server = await startScriptedServer((req, res) => {
      if (req.url.startsWith("/api/3/accountCustomFieldMeta/3")) return sendJson(res, 200, metum);
      if (req.method === "POST") {
        posts++;
        // The answer is lost after the value was made: the create finds it instead of sending it again.
        res.socket?.destroy();
        return;
      }
      if (req.url.startsWith("/api/3/accountCustomFieldData?"))
        return sendJson(res, 200, { accountCustomFieldData: posts ? [datum] : [], meta: { total: posts } });
      sendJson(res, 200, { accountCustomFieldDatum: datum });
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const inputs = { accountId: "12", customFieldId: "3", fieldValue: ["a", "b"], adoptExisting: false };
    const created = await provider.create(inputs);
    assert.equal(posts, 1);
    assert.deepEqual(created, { id: "9", outs: { accountId: "12", customFieldId: "3", fieldValue: ["a", "b"], fieldType: "multiselect" } });
    const post = server.requests.find((request) => request.method === "POST")!;
    assert.deepEqual(JSON.parse(post.body), { accountCustomFieldDatum: { customerAccountId: 12, customFieldId: 3, fieldValue: "||a||b||" } });
    assert.deepEqual(await provider.read("9", created.outs), {
      id: "9",
      props: created.outs,
      inputs: { accountId: "12", customFieldId: "3", fieldValue: ["a", "b"] },
    });
  });
});
