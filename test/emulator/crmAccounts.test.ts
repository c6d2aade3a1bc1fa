import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

describe("CRM accounts and notes", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const createAccount = async (name: string, accountUrl?: string) => {
    const reply = await h.api("POST", "/api/3/accounts", { account: { name, accountUrl } });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return reply.body.account;
  };

  describe("POST /accounts", () => {
    it("creates with 201 and answers the account with digit-string id, ISO timestamps and empty links", async () => {
      const reply = await h.api("POST", "/api/3/accounts", { account: { name: "Acme", accountUrl: "https://acme.test" } });
      assert.equal(reply.status, 201);
      const { account } = reply.body;
      assert.equal(account.id, "1");
      assert.equal(account.name, "Acme");
      assert.equal(account.accountUrl, "https://acme.test");
      assert.match(account.createdTimestamp, ISO_WITH_OFFSET);
      assert.equal(account.updatedTimestamp, account.createdTimestamp);
      assert.deepEqual(account.links, []);
    });

    it("answers accountUrl null when none is given", async () => {
      assert.equal((await createAccount("No Site")).accountUrl, null);
    });

    it("answers 422 field_missing with a pointer when the name is absent or blank", async () => {
      for (const body of [{ account: {} }, { account: { name: "  " } }, {}]) {
        const reply = await h.api("POST", "/api/3/accounts", body);
        assert.equal(reply.status, 422);
        assert.deepEqual(reply.body.errors[0], {
          title: "The account name was not provided.",
          detail: "",
          code: "field_missing",
          source: { pointer: "/data/attributes/name" },
        });
      }
    });

    it("answers 422 duplicate for a name already in use, regardless of case", async () => {
      await createAccount("Acme");
      const reply = await h.api("POST", "/api/3/accounts", { account: { name: "ACME" } });
      assert.equal(reply.status, 422);
      assert.equal(reply.body.errors[0].code, "duplicate");
      assert.equal(reply.body.errors[0].source.pointer, "/data/attributes/name");
    });
  });

  describe("GET /accounts/{id}", () => {
    it("answers {account}", async () => {
      const created = await createAccount("Acme");
      const reply = await h.api("GET", `/api/3/accounts/${created.id}`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { account: created });
    });

    it("answers 404 {message} naming the record type and id", async () => {
      const reply = await h.api("GET", "/api/3/accounts/5");
      assert.equal(reply.status, 404);
      assert.deepEqual(reply.body, { message: "No Result found for Account with id 5" });
    });
  });

  describe("PUT /accounts/{id}", () => {
    it("updates given fields only and refreshes updatedTimestamp", async () => {
      const created = await createAccount("Acme", "https://acme.test");
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const reply = await h.api("PUT", `/api/3/accounts/${created.id}`, { account: { name: "Acme Corp" } });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.account.name, "Acme Corp");
      assert.equal(reply.body.account.accountUrl, "https://acme.test");
      assert.equal(reply.body.account.createdTimestamp, created.createdTimestamp);
      assert.ok(reply.body.account.updatedTimestamp > created.updatedTimestamp);
    });

    it("refuses a name another account holds, but keeps its own", async () => {
      const acme = await createAccount("Acme");
      await createAccount("Globex");
      assert.equal((await h.api("PUT", `/api/3/accounts/${acme.id}`, { account: { name: "globex" } })).body.errors[0].code, "duplicate");
      assert.equal((await h.api("PUT", `/api/3/accounts/${acme.id}`, { account: { name: "ACME" } })).status, 200);
    });

    it("answers 404 for an unknown account", async () => {
      assert.equal((await h.api("PUT", "/api/3/accounts/9", { account: { name: "x" } })).status, 404);
    });
  });

  describe("DELETE /accounts/{id}", () => {
    it("deletes with 200 {} and removes the account's associations", async () => {
      const account = await createAccount("Acme");
      const contact = (await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      const association = (await h.api("POST", "/api/3/accountContacts", { accountContact: { account: account.id, contact: contact.id } })).body.accountContact;
      const reply = await h.api("DELETE", `/api/3/accounts/${account.id}`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, {});
      assert.equal((await h.api("GET", `/api/3/accounts/${account.id}`)).status, 404);
      assert.equal((await h.api("GET", `/api/3/accountContacts/${association.id}`)).status, 404);
      const associationGone = await h.api("DELETE", `/api/3/accountContacts/${association.id}`);
      assert.deepEqual(
        [associationGone.status, associationGone.body],
        [404, { message: `No Result found for CustomerAccountSubscriber with id ${association.id}` }],
      );
      assert.equal((await h.api("DELETE", `/api/3/accounts/${account.id}`)).status, 404);
    });
  });

  describe("GET /accounts", () => {
    it("lists with contactCount, dealCount and links, and meta.total as a string", async () => {
      const acme = await createAccount("Acme");
      await createAccount("Globex");
      const contact = (await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      await h.api("POST", "/api/3/accountContacts", { accountContact: { account: acme.id, contact: contact.id } });
      const reply = await h.api("GET", "/api/3/accounts");
      assert.equal(reply.status, 200);
      assert.equal(reply.body.meta.total, "2");
      const [first, second] = reply.body.accounts;
      assert.equal(first.contactCount, "1");
      assert.equal(second.contactCount, "0");
      assert.equal(first.dealCount, "0");
      assert.deepEqual(first.links, {
        notes: `${h.emulator.crmUrl}/api/3/accounts/1/notes`,
        accountCustomFieldData: `${h.emulator.crmUrl}/api/3/accounts/1/accountCustomFieldData`,
        accountContacts: `${h.emulator.crmUrl}/api/3/accounts/1/accountContacts`,
      });
    });

    it("searches by name, case-insensitively", async () => {
      for (const name of ["Acme", "Acme West", "Globex"]) await createAccount(name);
      const reply = await h.api("GET", "/api/3/accounts?search=acme");
      assert.deepEqual(
        reply.body.accounts.map((a: { name: string }) => a.name),
        ["Acme", "Acme West"],
      );
      assert.equal(reply.body.meta.total, "2");
    });

    it("pages with limit (default 20, clamped to 100) and offset", async () => {
      for (let i = 1; i <= 39; i++) await createAccount(`Account ${i}`);
      const first = await h.api("GET", "/api/3/accounts");
      assert.equal(first.body.accounts.length, 20);
      assert.equal(first.body.meta.total, "39");
      const second = await h.api("GET", "/api/3/accounts?offset=20");
      assert.equal(second.body.accounts.length, 19);
      assert.equal(second.body.accounts[0].name, "Account 21");
      assert.equal((await h.api("GET", "/api/3/accounts?limit=5&offset=2")).body.accounts[0].name, "Account 3");
      assert.equal((await h.api("GET", "/api/3/accounts?limit=500")).body.accounts.length, 39);
    });

    it("orders by repeated orders[field] in query order", async () => {
      for (const name of ["b", "a", "c", "a2"]) await createAccount(name);
      const byName = await h.api("GET", "/api/3/accounts?orders[name]=DESC");
      assert.deepEqual(
        byName.body.accounts.map((a: { name: string }) => a.name),
        ["c", "b", "a2", "a"],
      );
      const byIdDesc = await h.api("GET", "/api/3/accounts?orders[id]=DESC&orders[name]=ASC");
      assert.deepEqual(
        byIdDesc.body.accounts.map((a: { id: string }) => a.id),
        ["4", "3", "2", "1"],
      );
    });

    it("sideloads accountContacts, their contacts and notes with include", async () => {
      const acme = await createAccount("Acme");
      const contact = (await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      const association = (await h.api("POST", "/api/3/accountContacts", { accountContact: { account: acme.id, contact: contact.id } })).body.accountContact;
      const note = (await h.api("POST", `/api/3/accounts/${acme.id}/notes`, { note: { note: "hello" } })).body.note;
      const reply = await h.api("GET", "/api/3/accounts?include=accountContacts.contact,notes");
      assert.deepEqual(reply.body.accounts[0].accountContacts, [association.id]);
      assert.deepEqual(reply.body.accounts[0].notes, [note.id]);
      assert.deepEqual(
        reply.body.accountContacts.map((ac: { id: string }) => ac.id),
        [association.id],
      );
      assert.deepEqual(
        reply.body.contacts.map((c: { email: string }) => c.email),
        ["ann@acme.test"],
      );
      assert.deepEqual(
        reply.body.notes.map((n: { note: string }) => n.note),
        ["hello"],
      );
      const single = await h.api("GET", `/api/3/accounts/${acme.id}?include=accountContacts`);
      assert.deepEqual(single.body.account.accountContacts, [association.id]);
      assert.equal(single.body.accountContacts.length, 1);
    });
  });

  describe("DELETE /accounts/bulk_delete", () => {
    for (const [encoding, query] of [
      ["ids[]=1&ids[]=2", "ids[]=1&ids[]=2"],
      ["ids=1,2", "ids=1,2"],
      ["repeated ids=", "ids=1&ids=2"],
    ]) {
      it(`deletes the accounts listed as ${encoding}`, async () => {
        for (const name of ["one", "two", "three"]) await createAccount(name);
        const reply = await h.api("DELETE", `/api/3/accounts/bulk_delete?${query}`);
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.body, { meta: { success: true } });
        const left = await h.api("GET", "/api/3/accounts");
        assert.deepEqual(
          left.body.accounts.map((a: { name: string }) => a.name),
          ["three"],
        );
      });
    }

    it("tolerates the trailing slash of the seed's path and answers 422 without ids", async () => {
      await createAccount("one");
      assert.equal((await h.api("DELETE", "/api/3/accounts/bulk_delete/?ids=1")).status, 200);
      const missing = await h.api("DELETE", "/api/3/accounts/bulk_delete");
      assert.equal(missing.status, 422);
      assert.equal(missing.body.errors[0].code, "field_missing");
      assert.equal((await h.api("DELETE", "/api/3/accounts/bulk_delete?ids=abc")).body.errors[0].code, "field_invalid");
    });
  });

  describe("account notes", () => {
    it("POST /accounts/{id}/notes answers 201 {accounts, note} with the note's owner and relation", async () => {
      const acme = await createAccount("Acme");
      const reply = await h.api("POST", `/api/3/accounts/${acme.id}/notes`, { note: { note: "Called them" } });
      assert.equal(reply.status, 201);
      assert.equal(reply.body.accounts[0].id, acme.id);
      const { note } = reply.body;
      assert.equal(note.note, "Called them");
      assert.deepEqual(note.owner, { id: acme.id, type: "account" });
      assert.equal(note.relid, acme.id);
      assert.equal(note.reltype, "CustomerAccount");
      assert.match(note.cdate, ISO_WITH_OFFSET);
      assert.equal(note.links.owner, `${h.emulator.crmUrl}/api/3/notes/${note.id}/owner`);
    });

    it("requires the note text and an existing account", async () => {
      const acme = await createAccount("Acme");
      const missing = await h.api("POST", `/api/3/accounts/${acme.id}/notes`, { note: {} });
      assert.equal(missing.status, 422);
      assert.equal(missing.body.errors[0].source.pointer, "/data/attributes/note");
      assert.equal((await h.api("POST", "/api/3/accounts/77/notes", { note: { note: "x" } })).status, 404);
    });

    it("PUT /accounts/{id}/notes/{noteid} changes the note of that account only", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const note = (await h.api("POST", `/api/3/accounts/${acme.id}/notes`, { note: { note: "v1" } })).body.note;
      const reply = await h.api("PUT", `/api/3/accounts/${acme.id}/notes/${note.id}`, { note: { note: "v2" } });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.note.note, "v2");
      assert.equal(reply.body.accounts[0].name, "Acme");
      assert.equal((await h.api("PUT", `/api/3/accounts/${globex.id}/notes/${note.id}`, { note: { note: "v3" } })).status, 404);
    });

    it("GET, PUT and DELETE /notes/{id}, with 404 {message} once gone", async () => {
      const acme = await createAccount("Acme");
      const note = (await h.api("POST", `/api/3/accounts/${acme.id}/notes`, { note: { note: "v1" } })).body.note;
      assert.equal((await h.api("GET", `/api/3/notes/${note.id}`)).body.note.note, "v1");
      assert.equal((await h.api("PUT", `/api/3/notes/${note.id}`, { note: { note: "v2" } })).body.note.note, "v2");
      assert.equal((await h.api("GET", "/api/3/notes")).body.meta.total, "1");
      assert.deepEqual((await h.api("DELETE", `/api/3/notes/${note.id}`)).body, {});
      const gone = await h.api("GET", `/api/3/notes/${note.id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body, { message: `No Result found for Note with id ${note.id}` });
    });
  });
});
