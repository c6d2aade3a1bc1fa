import assert from "node:assert/strict";
import * as provider from "../../provider/crm/account-contact";
import { useStackConfig } from "../../provider/settings";
import { configOf, emulatorCall } from "../../scripts/harness/emulator";
import { checked, createAndVerify, updateAndVerify } from "../support/provider-steps";
import { type ScriptedServer, sendJson, startScriptedServer } from "../support/scripted-server";
import { describeResource, emptyAccount } from "../support/describe-resource";

describeResource(
  {
    type: "crm.AccountContact",
    provider,
    beforeEach: async (service) => {
      await emptyAccount(service);
      const { emulator } = service;
      const account = async (name: string) => (await emulatorCall(emulator, "POST", "/api/3/accounts", { account: { name } })).body.account.id;
      const contact = async (email: string) => (await emulatorCall(emulator, "POST", "/api/3/contacts", { contact: { email } })).body.contact.id;
      return { acme: await account("Acme"), globex: await account("Globex"), ann: await contact("ann@example.com"), bob: await contact("bob@example.com") };
    },
    adoption: {
      existing: async ({ emulator, parents: { acme, ann } }) => {
        const declared = { accountId: acme, contactId: ann, jobTitle: "CTO" };
        const association = { account: Number(acme), contact: Number(ann), jobTitle: "CTO" };
        return {
          id: (await emulatorCall(emulator, "POST", "/api/3/accountContacts", { accountContact: association })).body.accountContact.id,
          inputs: declared,
        };
      },
      changes: { jobTitle: "CEO" },
      updateRoute: "PUT /api/3/accountContacts/:id",
    },
    badInputs: [
      [{ accountId: "1", contactId: -4, jobTitle: 7, title: "CEO" }, "contactId", /^crm\.AccountContact: contactId must be the id of the contact/],
      [{ accountId: "1", contactId: -4, jobTitle: 7, title: "CEO" }, "jobTitle", /jobTitle must be a string/],
      [
        { accountId: "1", contactId: -4, jobTitle: 7, title: "CEO" },
        "title",
        /title is not a field of this resource; the fields are: accountId, contactId, jobTitle/,
      ],
      [
        { accountId: "1", contactId: "2", jobTitle: "x".repeat(256) },
        "jobTitle",
        /^crm\.AccountContact \(contact 2, account 1\): jobTitle must be at most 255 characters/,
      ],
    ],
    roundTrip: {
      inputs: ({ acme, ann }) => [
        { accountId: acme, contactId: ann },
        { accountId: acme, contactId: ann, jobTitle: "CTO" },
      ],
      created: (created, inputs) => assert.deepEqual(created.outs, inputs, "the outputs are the association as declared"),
    },
  },
  (service) => {
    it("updates the job title, moves the contact to another account and changes the contact, all in place", async () => {
      const { acme, globex, ann, bob } = service.parents;
      const { id, outs } = await createAndVerify(provider, { accountId: acme, contactId: ann });
      let current = await updateAndVerify(provider, id, outs, { accountId: acme, contactId: ann, jobTitle: "CEO" });
      current = await updateAndVerify(provider, id, current, { accountId: acme, contactId: ann });
      assert.equal("jobTitle" in current, false);
      current = await updateAndVerify(provider, id, current, { accountId: globex, contactId: ann });
      await updateAndVerify(provider, id, current, { accountId: globex, contactId: bob, jobTitle: "CFO" });
    });

    it("says which account a contact belongs to already, and what to do", async () => {
      const { emulator } = service;
      const { acme, globex, ann } = service.parents;
      const held = (await emulatorCall(emulator, "POST", "/api/3/accountContacts", { accountContact: { account: Number(globex), contact: Number(ann) } })).body
        .accountContact;
      await assert.rejects(provider.create(await checked(provider, { accountId: acme, contactId: ann })), (error: Error) => {
        assert.equal(
          error.message,
          `crm.AccountContact (contact ${ann}, account ${acme}): contact ${ann} already belongs to account ${globex} (association ${held.id}), and a contact can belong to one account only; ` +
            "remove that association (or change accountId on the resource that manages it) first, or associate another contact.",
        );
        return true;
      });
      // The declared association itself, perhaps made by a deployment killed before it recorded it.
      await assert.rejects(provider.create(await checked(provider, { accountId: globex, contactId: ann })), (error: Error) => {
        assert.match(
          error.message,
          new RegExp(
            `^crm\\.AccountContact \\(contact ${ann}, account ${globex}\\): contact ${ann} already belongs to this account \\(association ${held.id}\\); .*take it over with adoptId: "${held.id}"; .*\\(DELETE http://127\\.0\\.0\\.1:\\d+/api/3/accountContacts/${held.id},`,
          ),
        );
        return true;
      });
    });

    it("keeps the service's error when the refusal is not about another account", async () => {
      await assert.rejects(
        provider.create(await checked(provider, { accountId: "999", contactId: service.parents.bob })),
        /the service answered 422 \(field_invalid\) for field "account": No account with id 999/,
      );
    });

    it("sees a change out of band, a deletion out of band as gone, and an association its account's deletion took as deleted", async () => {
      const { emulator } = service;
      const { acme, ann } = service.parents;
      const { id, outs, inputs } = await createAndVerify(provider, { accountId: acme, contactId: ann, jobTitle: "CEO" });
      await emulatorCall(emulator, "PUT", `/api/3/accountContacts/${id}`, { accountContact: { jobTitle: "Intern" } });
      const read = await provider.read(id, outs);
      assert.equal(read.props?.jobTitle, "Intern");
      assert.equal((await provider.diff(id, read.props!, inputs)).changes, true);
      await emulatorCall(emulator, "DELETE", `/api/3/accountContacts/${id}`);
      assert.deepEqual(await provider.read(id, outs), {});

      const again = await provider.create(await checked(provider, { accountId: acme, contactId: ann }));
      await emulatorCall(emulator, "DELETE", `/api/3/accounts/${acme}`);
      await provider.delete(again.id, again.outs);
      assert.deepEqual(await provider.read(again.id, again.outs), {});
    });
  },
);

describe("crm.AccountContact against the real service's answers", () => {
  let server: ScriptedServer;
  afterEach(async () => server?.close());

  it("recovers a create whose answer was lost by finding the association, and reads string ids as the numbers sent", async () => {
    let posts = 0;
    const association = { id: "17", account: "2", contact: "3", jobTitle: "", createdTimestamp: "2027-03-31T10:15:00-05:00", links: [] };
    server = await startScriptedServer((req, res) => {
      if (req.method === "POST") {
        posts++;
        res.socket?.destroy();
        return;
      }
      sendJson(res, 200, { accountContacts: posts ? [association] : [], meta: { total: String(posts) } });
    });
    useStackConfig(configOf({ "crm:apiUrl": server.url, "crm:apiToken": "k" }));
    const created = await provider.create({ accountId: "2", contactId: "3" });
    assert.deepEqual([created.id, created.outs, posts], ["17", { accountId: "2", contactId: "3" }, 1]);
    assert.deepEqual(JSON.parse(server.requests[0].body), { accountContact: { account: 2, contact: 3 } });
    assert.match(server.requests[1].url, /filters%5Bcontact%5D=3&filters%5Baccount%5D=2/);
  });
});
