import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-note";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall, emulatorStats } from "../../scripts/harness/emulator";
import { checked, createAndVerify, updateAndVerify } from "../support/provider-steps";
import { sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.AccountNote",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      const { emulator } = service;
      return { account: (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Acme" } })).body.account.id };
    },
    adoption: {
      existing: async ({ emulator, parents }) => {
        const note = (await emulatorCall(emulator, "POST", `/api/3/accounts/${parents.account}/notes`, { note: { note: "Renewal due in March" } })).body.note;
        return { id: note.id, inputs: { accountId: parents.account, note: "Renewal due in March" } };
      },
      changes: { note: "Taken over" },
      updateRoute: "PUT /api/3/accounts/:id/notes/:noteid",
    },
    badInputs: [
      [{ accountId: "12a", text: "x" }, "accountId", /^crm\.AccountNote: accountId must be the id of the account/],
      [{ accountId: "12a", text: "x" }, "note", /note is required: the note's text/],
      [{ accountId: "12a", text: "x" }, "text", /text is not a field of this resource; the fields are: accountId, note/],
      [{ accountId: "1", note: "  " }, "note", /^crm\.AccountNote on account 1: note must not be blank/],
    ],
    roundTrip: {
      inputs: ({ account }) => [
        { accountId: account, note: "Renewal due in March" },
        { accountId: account, note: "Line one\nline two — ✓" },
      ],
    },
  },
  (service) => {
    it("is created under its account, read back as created, and changed in place under its account", async () => {
      const accountId = service.parents.account;
      const { id, outs } = await createAndVerify(provider, { accountId, note: "Renewal due in March" });
      assert.deepEqual(outs, { accountId, note: "Renewal due in March" });
      const held = (await emulatorCall(service.emulator, "GET", `/api/3/notes/${id}`)).body.note;
      assert.deepEqual([held.reltype, held.relid], ["CustomerAccount", accountId]);
      await updateAndVerify(provider, id, outs, { accountId: Number(accountId), note: "Renewal signed" });
      const { byRoute } = await emulatorStats(service.emulator);
      assert.deepEqual([byRoute["POST /api/3/accounts/:id/notes"], byRoute["PUT /api/3/accounts/:id/notes/:noteid"]], [1, 1]);
    });

    it("adoptId: an id of another kind of object, or of a note on another account, fails clearly", async () => {
      const { emulator } = service;
      const accountId = service.parents.account;
      const field = (
        await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "Tier", fieldType: "text" } })
      ).body.accountCustomFieldMetum;
      const value = (
        await emulatorCall(emulator, "POST", "/api/3/accountCustomFieldData", {
          accountCustomFieldDatum: { customerAccountId: accountId, customFieldId: field.id, fieldValue: "gold" },
        })
      ).body.accountCustomFieldDatum;
      await assert.rejects(
        provider.create(await checked(provider, { accountId, note: "x", adoptId: value.id })),
        new RegExp(`adoptId ${value.id} names no crm\\.AccountNote of this CRM account`),
      );
      const otherAccount = (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name: "Globex" } })).body.account.id;
      const note = (await emulatorCall(emulator, "POST", `/api/3/accounts/${otherAccount}/notes`, { note: { note: "Theirs" } })).body.note;
      await assert.rejects(
        provider.create(await checked(provider, { accountId, note: "Theirs", adoptId: note.id })),
        new RegExp(
          `the object ${note.id} named by adoptId, whose accountId is "${otherAccount}", which an update cannot change; declare accountId "${otherAccount}" to take it over, or remove adoptId`,
        ),
      );
    });

    it("adoptId: a note of a contact, listed among the notes too, fails clearly", async () => {
      const server = await startScriptedServer((_req, res) =>
        sendJson(res, 200, { note: { id: "5", note: "Called back", relid: "3", reltype: "Subscriber" } }),
      );
      try {
        useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
        await assert.rejects(
          provider.create(await checked(provider, { accountId: "3", note: "Called back", adoptId: "5" })),
          /adoptId 5 names a note on a Subscriber record, not a crm\.AccountNote/,
        );
        assert.deepEqual(
          server.requests.map((request) => `${request.method} ${request.url}`),
          ["GET /api/3/notes/5"],
        );
      } finally {
        await server.close();
      }
    });

    it("is replaced when its account changes", async () => {
      const olds = { accountId: "1", note: "x" };
      assert.deepEqual((await provider.diff("5", olds, await checked(provider, { ...olds, accountId: "2" }))).replaces, ["accountId"]);
    });

    it("sees a change out of band, and a deletion out of band (of the note or of its account) as gone", async () => {
      const { emulator } = service;
      const accountId = service.parents.account;
      const { id, outs, inputs } = await createAndVerify(provider, { accountId, note: "v1" });
      await emulatorCall(emulator, "PUT", `/api/3/notes/${id}`, { note: { note: "edited in the app" } });
      const read = await provider.read(id, outs);
      assert.equal(read.props?.note, "edited in the app");
      assert.equal((await provider.diff(id, read.props!, inputs)).changes, true);
      await emulatorCall(emulator, "DELETE", `/api/3/notes/${id}`);
      assert.deepEqual(await provider.read(id, outs), {});
      await provider.delete(id, outs);

      const again = await provider.create(await checked(provider, { accountId, note: "v2" }));
      await emulatorCall(emulator, "DELETE", `/api/3/accounts/${accountId}`);
      assert.deepEqual(await provider.read(again.id, again.outs), {});
    });
  },
);
