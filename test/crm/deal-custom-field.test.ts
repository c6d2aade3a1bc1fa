import assert from "node:assert/strict";
import * as provider from "../../provider/crm/deal-custom-field";
import { emulatorCall } from "../../scripts/harness/emulator";
import { checked } from "../support/provider-steps";
import { describeResource, emptyAccount } from "../support/describe-resource";

/** Numbers the labels of adopted fields: a label stays claimed in the provider process after its create. */
let serial = 0;

describeResource(
  {
    type: "crm.DealCustomField",
    provider,
    beforeEach: emptyAccount,
    adoption: {
      existing: async ({ emulator }) => {
        const declared = { fieldLabel: `Adopted ${++serial}`, fieldType: "dropdown", fieldOptions: ["Web", "Event"], fieldDefault: "Web", isFormVisible: true };
        const dealCustomFieldMetum = { ...declared, isFormVisible: 1 };
        return {
          id: (await emulatorCall(emulator, "POST", "/api/3/dealCustomFieldMeta", { dealCustomFieldMetum })).body.dealCustomFieldMetum.id,
          inputs: declared,
        };
      },
      changes: { fieldOptions: ["Web", "Event", "Referral"], fieldDefault: "Referral", isRequired: true },
      updateRoute: "PUT /api/3/dealCustomFieldMeta/:id",
    },
    badInputs: [
      [{ fieldType: "text" }, "fieldLabel", /^crm\.DealCustomField: fieldLabel is required: the field's label$/],
      [
        { fieldLabel: "S", fieldType: "colour" },
        "fieldType",
        /^crm\.DealCustomField "S": fieldType must be one of text, textarea, date, datetime, dropdown, multiselect, radio, checkbox, hidden, currency, number$/,
      ],
      [{ fieldLabel: "S", fieldType: "dropdown" }, "fieldOptions", /fieldOptions is required for a dropdown field/],
      [
        { fieldLabel: "S", fieldType: "radio", fieldOptions: ["a", "b"], fieldDefault: "c" },
        "fieldDefault",
        /fieldDefault must be among the field's options \("a", "b"\); "c" is not/,
      ],
      [
        { fieldLabel: "S", fieldType: "text", fieldDefaultCurrency: "USD" },
        "fieldDefaultCurrency",
        /fieldDefaultCurrency is only for currency fields, not text/,
      ],
    ],
    roundTrip: {
      inputs: [
        { fieldLabel: "Source", fieldType: "dropdown", fieldOptions: ["Web", "Event"], fieldDefault: "Event" },
        { fieldLabel: "Signed on", fieldType: "date", fieldDefault: "2027-03-31", isRequired: true, displayOrder: 4 },
        { fieldLabel: "Budget", fieldType: "currency", fieldDefault: 10050, fieldDefaultCurrency: "EUR", isFormVisible: true },
      ],
      // Deleted, the field frees its label for the test that sends these inputs again.
      then: (created) => provider.delete(created.id, created.outs),
    },
  },
  (service) => {
    it("is kept apart from the account fields: a deal field's label may be an account field's too", async () => {
      const accountCustomFieldMetum = { fieldLabel: "Region", fieldType: "text" };
      await emulatorCall(service.emulator, "POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum });
      const created = await provider.create(await checked(provider, { fieldLabel: "Region", fieldType: "text" }));
      assert.equal((await emulatorCall(service.emulator, "GET", `/api/3/dealCustomFieldMeta/${created.id}`)).body.dealCustomFieldMetum.fieldLabel, "Region");
      assert.equal((await emulatorCall(service.emulator, "GET", "/api/3/accountCustomFieldMeta")).body.accountCustomFieldMeta.length, 1);
    });

    it("finds a field changed behind its back (a PUT under the right root key), and not one sent under the wrong key, which the service ignores", async () => {
      const news = await checked(provider, { fieldLabel: "Stage note", fieldType: "text", fieldDefault: "none" });
      const created = await provider.create(news);
      const path = `/api/3/dealCustomFieldMeta/${created.id}`;
      const ignored = await emulatorCall(service.emulator, "PUT", path, { dealCustomFieldMeta: { fieldDefault: "changed" } });
      assert.equal(ignored.status, 200);
      const untouched = await provider.read(created.id, created.outs);
      assert.equal((await provider.diff(created.id, untouched.props!, news)).changes, false);
      await emulatorCall(service.emulator, "PUT", path, { dealCustomFieldMetum: { fieldDefault: "changed", isRequired: 1 } });
      const drifted = await provider.read(created.id, created.outs);
      assert.equal(drifted.props?.fieldDefault, "changed");
      assert.equal(drifted.props?.isRequired, true);
      const diff = await provider.diff(created.id, drifted.props!, news);
      assert.deepEqual([diff.changes, diff.replaces], [true, []]);
      const { outs } = await provider.update(created.id, drifted.props!, news);
      assert.equal(outs.fieldDefault, "none");
      assert.equal((await emulatorCall(service.emulator, "GET", path)).body.dealCustomFieldMetum.isRequired, 0);
    });

    it("is deleted with the service's {message}, and a second delete counts as deleted", async () => {
      const created = await provider.create(await checked(provider, { fieldLabel: "Gone", fieldType: "text" }));
      const answer = await emulatorCall(service.emulator, "DELETE", `/api/3/dealCustomFieldMeta/${created.id}`);
      assert.deepEqual(answer.body, { message: "DealCustomFieldMeta deleted." });
      await provider.delete(created.id, created.outs);
      const gone = await emulatorCall(service.emulator, "GET", `/api/3/dealCustomFieldMeta/${created.id}`);
      assert.deepEqual([gone.status, gone.body], [404, { message: `No Result found for DealCustomFieldMetum with id ${created.id}` }]);
    });
  },
);
