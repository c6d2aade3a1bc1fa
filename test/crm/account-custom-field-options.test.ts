// A value outside its field's options (dropdown, radio, multiselect, checkbox) is refused
// by crm.AccountCustomFieldValue, naming the options: by check when the inputs hold them
// (fieldOptions), else by a create or update once the field's definition is read, before
// anything is written. The emulator, like the service, takes any value of the field's
// type, and stores a field's options as the list it was given.

import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-custom-field-value";
import { unknownValue } from "../../provider/kit/inputs";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorForProvider, emulatorStats, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked, providerCode } from "../support/provider-steps";

const tiers = ["Gold", "Silver", "Bronze"];
const notAmongTiers = (outside: string) => `must be among the field's options ("Gold", "Silver", "Bronze"); ${outside}`;

describe("crm.AccountCustomFieldValue: a value outside its field's options", () => {
  let emulator: RunningEmulator;
  let accountId: string;
  let serial = 0;

  before(async () => {
    emulator = await emulatorForProvider();
    useStackConfig(configOf({ "crm:apiUrl": emulator.crmUrl, "crm:apiToken": emulator.apiToken, "crm:requestsPerSecond": "0" }));
    accountId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme" } })).body.account.id;
  });
  after(async () => emulator.close());

  const newField = async (fieldType: string, fieldOptions: string[]) =>
    (
      await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldMeta", {
        accountCustomFieldMetum: { fieldLabel: `${fieldType} ${++serial}`, fieldType, fieldOptions },
      })
    ).body.accountCustomFieldMetum.id as string;
  /** Writes of values the emulator was sent: creates, updates, bulk ones included. */
  const valueWrites = async () =>
    Object.entries((await emulatorStats(emulator)).byRoute)
      .filter(([route]) => /^(POST|PUT|PATCH) \/api\/3\/accountCustomFieldData/.test(route))
      .reduce((sum, [, count]) => sum + count, 0);
  /** A value's fieldValue as the service holds it. */
  const heldValue = async (id: string) => (await emulatorCall(emulator, "GET", `/api/3/accountCustomFieldData/${id}`)).body.accountCustomFieldDatum.fieldValue;
  const checkFailures = async (inputs: Record<string, unknown>) => (await provider.check({}, { ...inputs, __provider: providerCode })).failures;

  describe("in check, when the inputs hold the field's options", () => {
    it("is refused naming the value and the options, also while the ids are not known yet in a preview", async () => {
      assert.deepEqual(await checkFailures({ accountId: "3", customFieldId: "7", fieldValue: "Platinum", fieldOptions: tiers }), [
        { property: "fieldValue", reason: `crm.AccountCustomFieldValue of field 7 for account 3: fieldValue ${notAmongTiers('"Platinum" is not')}.` },
      ]);
      assert.deepEqual(await checkFailures({ accountId: unknownValue, customFieldId: unknownValue, fieldValue: "Platinum", fieldOptions: tiers }), [
        { property: "fieldValue", reason: `crm.AccountCustomFieldValue: fieldValue ${notAmongTiers('"Platinum" is not')}.` },
      ]);
    });

    it("refuses each element of a list, or of `||a||b||`, that is not an option", async () => {
      const reasons = async (fieldValue: unknown) =>
        (await checkFailures({ accountId: "3", customFieldId: "7", fieldValue, fieldOptions: tiers }))?.map((failure) => failure.reason);
      assert.deepEqual(await reasons(["Gold", "Tin", "Lead"]), [
        `crm.AccountCustomFieldValue of field 7 for account 3: fieldValue ${notAmongTiers('"Tin", "Lead" are not')}.`,
      ]);
      assert.deepEqual(await reasons("||Silver||Tin||"), [
        `crm.AccountCustomFieldValue of field 7 for account 3: fieldValue ${notAmongTiers('"Tin" is not')}.`,
      ]);
    });

    it("takes a value among them in each form, and any value while the options or the value are unknown", async () => {
      for (const fieldValue of ["Gold", ["Gold", "Bronze"], "||Silver||Gold||"])
        await checked(provider, { accountId: "3", customFieldId: "7", fieldValue, fieldOptions: tiers });
      await checked(provider, { accountId: "3", customFieldId: "7", fieldValue: "Platinum", fieldOptions: unknownValue });
      await checked(provider, { accountId: "3", customFieldId: "7", fieldValue: unknownValue, fieldOptions: tiers });
    });

    it("the options are read only by check: not an output, and a change of them is no change of the value", async () => {
      const customFieldId = await newField("dropdown", tiers);
      const created = await provider.create(await checked(provider, { accountId, customFieldId, fieldValue: "Gold", fieldOptions: tiers }));
      assert.deepEqual(created.outs, { accountId, customFieldId, fieldValue: "Gold", fieldType: "dropdown" });
      const diff = await provider.diff(
        created.id,
        created.outs,
        await checked(provider, { accountId, customFieldId, fieldValue: "Gold", fieldOptions: ["Gold"] }),
      );
      assert.equal(diff.changes, false);
    });
  });

  describe("at a write, from the field's definition the service holds", () => {
    it("is refused at create for each type of option field, naming the field's options, before anything is written", async () => {
      const cases: Array<[string, string[], unknown, string]> = [
        ["dropdown", tiers, "Platinum", '"Platinum" is not'],
        ["radio", ["yes", "no"], "maybe", '"maybe" is not'],
        ["multiselect", ["a", "b", "c"], ["a", "z"], '"z" is not'],
        ["checkbox", ["x", "y"], "||y||q||w||", '"q", "w" are not'],
      ];
      const before = await valueWrites();
      for (const [fieldType, options, fieldValue, outside] of cases) {
        const customFieldId = await newField(fieldType, options);
        const allowed = options.map((option) => `"${option}"`).join(", ");
        await assert.rejects(provider.create(await checked(provider, { accountId, customFieldId, fieldValue })), (error: Error) => {
          assert.equal(
            error.message,
            `crm.AccountCustomFieldValue of field "${fieldType} ${serial}" (${customFieldId}) for account "Acme" (${accountId}): fieldValue must be among the field's options (${allowed}); ${outside}.`,
          );
          return true;
        });
      }
      assert.equal(await valueWrites(), before);
    });

    it("is refused at update, before the value is written", async () => {
      const customFieldId = await newField("dropdown", tiers);
      const created = await provider.create(await checked(provider, { accountId, customFieldId, fieldValue: "Gold" }));
      const before = await valueWrites();
      await assert.rejects(
        provider.update(created.id, created.outs, await checked(provider, { accountId, customFieldId, fieldValue: "Platinum" })),
        (error: Error) => error.message.endsWith(`fieldValue ${notAmongTiers('"Platinum" is not')}.`),
      );
      assert.equal(await valueWrites(), before);
      assert.equal(await heldValue(created.id), "Gold");
    });

    it("takes an option the field gained after its options were read, reading them again before refusing", async () => {
      const customFieldId = await newField("dropdown", tiers);
      const created = await provider.create(await checked(provider, { accountId, customFieldId, fieldValue: "Gold" }));
      await emulatorCall(emulator, "PUT", `/api/3/accountCustomFieldMeta/${customFieldId}`, {
        accountCustomFieldMetum: { fieldOptions: [...tiers, "Platinum"] },
      });
      const updated = await provider.update(created.id, created.outs, await checked(provider, { accountId, customFieldId, fieldValue: "Platinum" }));
      assert.deepEqual([updated.outs.fieldValue, await heldValue(created.id)], ["Platinum", "Platinum"]);
    });
  });
});
