// The requests the account-family providers send, held to crm-v3.openapi.json: each is
// an operation of the reference, and each body validates against its request schema
// (as the contract harness reads it), with unset optional members left out, never null.

import assert from "node:assert/strict";
import * as contact from "../../provider/crm/account-contact";
import * as field from "../../provider/crm/account-custom-field";
import * as value from "../../provider/crm/account-custom-field-value";
import * as note from "../../provider/crm/account-note";
import { emulatorCall, type RunningEmulator } from "../../scripts/harness/emulator";
import { checked, type ResourceModule } from "../support/provider-steps";
import { emulatorBehindProxy, type RecordingProxy } from "../support/recording-proxy";
import { nonConformingRequests } from "../support/reference-requests";
import { ReferenceDocument } from "./reference";

const reference = new ReferenceDocument("crm-v3.openapi.json");

describe("contract: requests of crm.AccountCustomField, AccountCustomFieldValue, AccountNote and AccountContact", () => {
  let emulator: RunningEmulator;
  let proxy: RecordingProxy;
  before(async () => ({ emulator, proxy } = await emulatorBehindProxy()));
  after(async () => Promise.all([proxy.close(), emulator.close()]));

  /** Creates, then updates to each of `changes` in turn. */
  const lifecycle = async (provider: ResourceModule, inputs: Record<string, unknown>, ...changes: Array<Record<string, unknown>>) => {
    const created = await provider.create(await checked(provider, inputs));
    let outs = created.outs;
    for (const change of changes) outs = (await provider.update(created.id, outs, await checked(provider, { ...inputs, ...change }))).outs;
    return { id: created.id, outs };
  };

  it("every request is a reference operation, and every body validates without nulls", async () => {
    const accountId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Contract Family" } })).body.account.id;
    const otherAccountId = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Contract Other" } })).body.account.id;
    const contactId = (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email: "family@example.com" } })).body.contact.id;

    const fields: Array<[Record<string, unknown>, unknown, unknown]> = [
      [{ fieldType: "text", fieldDefault: "x", isRequired: true, displayOrder: 1 }, "plain", "changed"],
      [{ fieldType: "dropdown", fieldOptions: ["S", "M"], fieldDefault: "S" }, "M", "S"],
      [{ fieldType: "multiselect", fieldOptions: ["a", "b"], fieldDefault: ["a", "b"] }, ["a"], ["a", "b"]],
      [{ fieldType: "date", fieldDefault: "2027-03-31" }, "03/31/2027", "2027-04-01"],
      [{ fieldType: "datetime", fieldDefault: "2027-03-31 10:00:00" }, "2027-03-31 10:00:00", "2027-03-31 11:00:00"],
      [{ fieldType: "currency", fieldDefault: 100, fieldDefaultCurrency: "EUR" }, 10050, 99],
      [{ fieldType: "number", fieldDefault: 1.5 }, 2, 3.25],
    ];
    for (const [index, [definition, first, second]] of fields.entries()) {
      const fieldLabel = `Contract ${definition.fieldType}`;
      const made = await lifecycle(
        field,
        { fieldLabel, ...definition },
        { fieldLabel: `${fieldLabel} renamed` },
        { fieldDefault: undefined, isFormVisible: true },
      );
      const currency = definition.fieldType === "currency" ? { fieldCurrency: "GBP" } : {};
      await lifecycle(value, { accountId, customFieldId: made.id, fieldValue: first }, { fieldValue: second, ...currency });
      if (index === 0) {
        // The adoption path: a value that exists already, taken over.
        const datum = { customerAccountId: Number(otherAccountId), customFieldId: Number(made.id), fieldValue: "old" };
        await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldData", { accountCustomFieldDatum: datum });
        await value.create(await checked(value, { accountId: otherAccountId, customFieldId: made.id, fieldValue: "new", adoptExisting: true }));
      }
    }
    await lifecycle(note, { accountId, note: "first" }, { note: "second" });
    await lifecycle(contact, { accountId, contactId }, { jobTitle: "CEO" }, { jobTitle: undefined, accountId: otherAccountId });

    assert.deepEqual(nonConformingRequests(proxy.requests), []);
    const operations = new Set(
      proxy.requests.map((request) => `${request.method} ${reference.templateOf(request.method, request.path.replace(/^\/api\/3/, ""))}`),
    );
    for (const operation of [
      "POST /accountCustomFieldMeta",
      "PUT /accountCustomFieldMeta/{id}",
      "GET /accountCustomFieldMeta",
      "GET /accountCustomFieldMeta/{id}",
      "POST /accountCustomFieldData",
      "PUT /accountCustomFieldData/{id}",
      "GET /accountCustomFieldData",
      "POST /accounts/{id}/notes",
      "PUT /accounts/{id}/notes/{noteid}",
      "POST /accountContacts",
      "PUT /accountContacts/{id}",
    ]) {
      assert.ok(operations.has(operation), `${operation} was not exercised: ${[...operations].join(", ")}`);
    }
  });
});
