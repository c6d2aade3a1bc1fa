import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

describe("CRM contacts and account-contact associations", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const createAccount = async (name: string) => (await h.api("POST", "/api/3/accounts", { account: { name } })).body.account;
  const createContact = async (email: string) => (await h.api("POST", "/api/3/contacts", { contact: { email, firstName: "Ann" } })).body.contact;
  const associate = (accountContact: Record<string, unknown>) => h.api("POST", "/api/3/accountContacts", { accountContact });
  /** The ids of the contacts GET /contacts answers to the query, comma-separated, and its meta.total. */
  const listed = async (query: string) => {
    const body = (await h.api("GET", `/api/3/contacts?${query}`)).body;
    return [body.contacts.map((c: { id: string }) => c.id).join(","), body.meta.total];
  };

  describe("contacts", () => {
    it("POST /contacts creates with 201; GET one answers {contact}; unknown ids answer 404 {message}", async () => {
      const reply = await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test", firstName: "Ann", lastName: "Lee", phone: "555" } });
      assert.equal(reply.status, 201);
      const { contact } = reply.body;
      assert.deepEqual([contact.id, contact.email, contact.firstName, contact.lastName, contact.phone], ["1", "ann@acme.test", "Ann", "Lee", "555"]);
      assert.deepEqual((await h.api("GET", "/api/3/contacts/1")).body.contact, contact);
      const missing = await h.api("GET", "/api/3/contacts/9");
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { message: "No Result found for Subscriber with id 9" });
    });

    it("POST /contacts answers 422 for a missing, malformed or duplicate email", async () => {
      await createContact("ann@acme.test");
      const codes = [];
      for (const contact of [{}, { email: "not-an-email" }, { email: "ANN@acme.test" }]) {
        const reply = await h.api("POST", "/api/3/contacts", { contact });
        assert.equal(reply.status, 422);
        assert.equal(reply.body.errors[0].source.pointer, "/data/attributes/email");
        codes.push(reply.body.errors[0].code);
      }
      assert.deepEqual(codes, ["field_missing", "field_invalid", "duplicate"]);
    });

    it("GET /contacts filters by email (filters[email] or email), case-insensitively", async () => {
      await createContact("ann@acme.test");
      await createContact("bob@acme.test");
      const byFilter = await h.api("GET", "/api/3/contacts?filters[email]=BOB@acme.test");
      assert.deepEqual(
        byFilter.body.contacts.map((c: { email: string }) => c.email),
        ["bob@acme.test"],
      );
      assert.equal(byFilter.body.meta.total, "1");
      assert.equal((await h.api("GET", "/api/3/contacts?email=ann@acme.test")).body.contacts[0].id, "1");
      assert.equal((await h.api("GET", "/api/3/contacts")).body.meta.total, "2");
    });

    it("GET /contacts filters by created and updated date; meta.total counts the filtered contacts", async () => {
      const contacts: Array<{ id: string; cdate: string }> = [];
      for (const email of ["ann@acme.test", "bob@acme.test", "cy@acme.test"]) {
        // Each contact in its own second, so that a time between two of them can be written.
        if (contacts.length > 0) await new Promise((resolve) => setTimeout(resolve, 1100));
        contacts.push(await createContact(email));
      }
      await h.api("POST", "/api/3/contact/sync", { contact: { email: "ann@acme.test", lastName: "Lee" } });
      // The second contact's creation, in the account's time as the service writes it, and as UTC.
      const second = contacts[1].cdate;
      const secondUtc = new Date(Date.parse(second)).toISOString();
      assert.deepEqual(await listed(`filters[created_after]=${encodeURIComponent(second)}`), ["2,3", "2"]);
      assert.deepEqual(await listed(`filters[created_after]=${encodeURIComponent(secondUtc)}&limit=1`), ["2", "2"]);
      assert.deepEqual(await listed(`filters[created_before]=${encodeURIComponent(second)}`), ["1", "1"]);
      // Ann was updated last: after the third contact was made.
      const third = contacts[2].cdate;
      assert.deepEqual(await listed(`filters[updated_after]=${encodeURIComponent(third.replace("T", " ").slice(0, 19))}`), ["1,3", "2"]);
      assert.deepEqual(await listed(`filters[updated_before]=${encodeURIComponent(third)}`), ["2", "1"]);
      // A date means its midnight in the account's time: all were made after that of their day, none after the next.
      const today = contacts[0].cdate.slice(0, 10);
      assert.deepEqual(await listed(`filters[created_after]=${today}`), ["1,2,3", "3"]);
      const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      assert.deepEqual(await listed(`filters[created_after]=${tomorrow}`), ["", "0"]);
      const bad = await h.api("GET", "/api/3/contacts?filters[updated_after]=yesterday");
      assert.equal(bad.status, 422);
      assert.equal(bad.body.errors[0].source.pointer, "/data/attributes/filters[updated_after]");
    });

    it("GET /contacts filters by ids, email_like, search, exclude, id_greater, id_less and organization; orders by the listed fields", async () => {
      for (const [email, firstName, lastName] of [
        ["ann@acme.test", "Ann", "Lee"],
        ["bob@globex.test", "Bob", "Ng"],
        ["cy@acme.test", "Cy", "Ann"],
      ]) {
        await h.api("POST", "/api/3/contacts", { contact: { email, firstName, lastName } });
      }
      const account = await createAccount("Acme");
      await associate({ account: account.id, contact: 3 });
      const expected: Array<[query: string, ids: string, total: string]> = [
        ["ids[]=1&ids[]=3", "1,3", "2"],
        ["email_like=ACME", "1,3", "2"],
        ["search=ann", "1,3", "2"],
        ["search=Bob%20Ng", "2", "1"],
        ["exclude=2", "1,3", "2"],
        ["id_greater=1&id_less=3", "2", "1"],
        [`organization=${account.id}`, "3", "1"],
        // The emulator keeps no lists, tags or automations: no contact is in one.
        ["listid=1", "", "0"],
        ["tagid=1", "", "0"],
        ["status=-1", "1,2,3", "3"],
        ["orders[first_name]=DESC", "3,2,1", "3"],
        ["orders[last_name]=ASC", "3,1,2", "3"],
        ["orders[id]=DESC&limit=1", "3", "3"],
      ];
      for (const [query, ids, total] of expected) assert.deepEqual(await listed(query), [ids, total], query);
    });

    it("POST /contact/sync creates (201) then updates (200) the contact with that email", async () => {
      const first = await h.api("POST", "/api/3/contact/sync", { contact: { email: "ann@acme.test", firstName: "Ann" } });
      assert.equal(first.status, 201);
      const second = await h.api("POST", "/api/3/contact/sync", { contact: { email: "Ann@Acme.test", lastName: "Lee" } });
      assert.equal(second.status, 200);
      assert.equal(second.body.contact.id, first.body.contact.id);
      assert.equal(second.body.contact.firstName, "Ann");
      assert.equal(second.body.contact.lastName, "Lee");
      assert.equal((await h.api("POST", "/api/3/contact/sync", { contact: { firstName: "x" } })).status, 422);
    });

    it("DELETE /contacts/{id} removes the contact and its association", async () => {
      const account = await createAccount("Acme");
      const contact = await createContact("ann@acme.test");
      await associate({ account: account.id, contact: contact.id });
      assert.deepEqual((await h.api("DELETE", `/api/3/contacts/${contact.id}`)).body, {});
      assert.equal((await h.api("GET", "/api/3/accountContacts")).body.meta.total, "0");
      assert.equal((await h.api("DELETE", `/api/3/contacts/${contact.id}`)).status, 404);
    });
  });

  describe("accountContacts", () => {
    it("POST creates with 201, echoing account and contact as sent; GET answers them as strings with meta", async () => {
      const account = await createAccount("Acme");
      const contact = await createContact("ann@acme.test");
      const reply = await associate({ account: Number(account.id), contact: Number(contact.id), jobTitle: "CTO" });
      assert.equal(reply.status, 201);
      const created = reply.body.accountContact;
      assert.deepEqual([created.account, created.contact, created.jobTitle], [1, 1, "CTO"]);
      assert.equal(created.links.contact, `${h.emulator.crmUrl}/api/3/accountContacts/${created.id}/contact`);
      const fetched = await h.api("GET", `/api/3/accountContacts/${created.id}`);
      assert.deepEqual([fetched.body.accountContact.account, fetched.body.accountContact.contact], ["1", "1"]);
      assert.ok("meta" in fetched.body);
    });

    it("POST answers 422 field_missing without account, field_invalid for unknown ids or a contact already in an account", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const contact = await createContact("ann@acme.test");
      const missing = await associate({ contact: contact.id });
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.body.errors[0].source, { pointer: "/data/attributes/account" });
      assert.equal(missing.body.errors[0].code, "field_missing");
      assert.equal((await associate({ account: acme.id })).body.errors[0].source.pointer, "/data/attributes/contact");
      assert.equal((await associate({ account: 99, contact: contact.id })).body.errors[0].code, "field_invalid");
      assert.equal((await associate({ account: acme.id, contact: 99 })).body.errors[0].code, "field_invalid");
      assert.equal((await associate({ account: acme.id, contact: contact.id })).status, 201);
      const again = await associate({ account: globex.id, contact: contact.id });
      assert.equal(again.status, 422);
      assert.equal(again.body.errors[0].code, "field_invalid");
      assert.equal(again.body.errors[0].source.pointer, "/data/attributes/contact");
    });

    it("PUT changes the job title alone, or moves the contact; unknown ids answer 404 {message}", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const contact = await createContact("ann@acme.test");
      const created = (await associate({ account: acme.id, contact: contact.id })).body.accountContact;
      const retitled = await h.api("PUT", `/api/3/accountContacts/${created.id}`, { accountContact: { jobTitle: "CEO" } });
      assert.equal(retitled.status, 200);
      assert.deepEqual([retitled.body.accountContact.jobTitle, retitled.body.accountContact.account], ["CEO", acme.id]);
      const moved = await h.api("PUT", `/api/3/accountContacts/${created.id}`, { accountContact: { account: Number(globex.id), contact: Number(contact.id) } });
      assert.equal(moved.body.accountContact.account, globex.id);
      assert.deepEqual((await h.api("PUT", "/api/3/accountContacts/50", { accountContact: { jobTitle: "x" } })).body, {
        message: "No Result found for CustomerAccountSubscriber with id 50",
      });
    });

    it("GET list filters by contact and account; contactCount follows the associations", async () => {
      const acme = await createAccount("Acme");
      const globex = await createAccount("Globex");
      const ann = await createContact("ann@acme.test");
      const bob = await createContact("bob@acme.test");
      const annAtAcme = (await associate({ account: acme.id, contact: ann.id })).body.accountContact;
      await associate({ account: globex.id, contact: bob.id });
      const byContact = await h.api("GET", `/api/3/accountContacts?filters[contact]=${bob.id}`);
      assert.deepEqual(
        byContact.body.accountContacts.map((ac: { account: string }) => ac.account),
        [globex.id],
      );
      const byAccount = await h.api("GET", `/api/3/accountContacts?filters[account]=${acme.id}`);
      assert.equal(byAccount.body.meta.total, "1");
      const counts = async () => (await h.api("GET", "/api/3/accounts")).body.accounts.map((a: { contactCount: string }) => a.contactCount);
      assert.deepEqual(await counts(), ["1", "1"]);
      await h.api("DELETE", `/api/3/accountContacts/${annAtAcme.id}`);
      assert.deepEqual(await counts(), ["0", "1"]);
    });

    it("DELETE answers 200 {} then 404 {message}", async () => {
      const account = await createAccount("Acme");
      const contact = await createContact("ann@acme.test");
      const created = (await associate({ account: account.id, contact: contact.id })).body.accountContact;
      assert.deepEqual((await h.api("DELETE", `/api/3/accountContacts/${created.id}`)).body, {});
      const gone = await h.api("DELETE", `/api/3/accountContacts/${created.id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body, { message: `No Result found for CustomerAccountSubscriber with id ${created.id}` });
    });

    it("sideloads the contact and account with include", async () => {
      const account = await createAccount("Acme");
      const contact = await createContact("ann@acme.test");
      const created = (await associate({ account: account.id, contact: contact.id })).body.accountContact;
      const reply = await h.api("GET", `/api/3/accountContacts/${created.id}?include=contact,account`);
      assert.equal(reply.body.contacts[0].email, "ann@acme.test");
      assert.equal(reply.body.accounts[0].name, "Acme");
    });
  });
});
