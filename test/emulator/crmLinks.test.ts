// Where the emulator's links lead, a contact's account and its update, as a client written
// for the real service reads them: every link a contact or a listed account carries answers
// 200 JSON in the form the reference's examples of that link show, and every operation
// sdk-docs/emulator.md lists is one the router serves, and no other.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createCrmService } from "../../emulator/src/crm/service";
import { ReferenceDocument } from "../contract/reference";
import { differences, shapeOfExamples } from "../contract/shape";
import { startHarness, type Harness } from "./harness";

const reference = new ReferenceDocument("crm-v3.openapi.json");

describe("CRM links, a contact's account and PUT /contacts/{id}", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  /** An account with a note and a custom field value, and a contact associated with it. */
  async function associated() {
    const account = (await h.api("POST", "/api/3/accounts", { account: { name: "Acme" } })).body.account;
    await h.api("POST", `/api/3/accounts/${account.id}/notes`, { note: { note: "Met at the fair" } });
    const field = (await h.api("POST", "/api/3/accountCustomFieldMeta", { accountCustomFieldMetum: { fieldLabel: "Size", fieldType: "text" } })).body
      .accountCustomFieldMetum;
    await h.api("POST", "/api/3/accountCustomFieldData", {
      accountCustomFieldDatum: { customerAccountId: account.id, customFieldId: field.id, fieldValue: "500" },
    });
    const contact = (await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test", firstName: "Ann" } })).body.contact;
    await h.api("POST", "/api/3/accountContacts", { accountContact: { account: account.id, contact: contact.id, jobTitle: "CEO" } });
    return { account, contact };
  }

  /** The path below /api/3 a link names. */
  const pathOf = (link: string) => new URL(link).pathname.replace(/^\/api\/3/, "");

  it("every link of a contact answers 200 JSON with the members of the reference's example of that path", async () => {
    const { contact } = await associated();
    const { links } = (await h.api("GET", `/api/3/contacts/${contact.id}`)).body.contact;
    assert.ok(Object.keys(links).length >= 14, Object.keys(links).join());
    for (const [name, link] of Object.entries(links as Record<string, string>)) {
      const path = pathOf(link);
      const template = reference.templateOf("GET", path);
      assert.equal(template, `/contacts/{id}/${name}`, `${name}: the reference describes no GET ${path}`);
      const reply = await h.api("GET", `/api/3${path}`);
      assert.equal(reply.status, 200, `${name}: ${reply.status} ${JSON.stringify(reply.body)}`);
      assert.match(reply.headers.get("content-type") ?? "", /json/, name);
      const [example] = reference.operation("GET", template).responseExamples(200) as Array<Record<string, unknown>>;
      assert.deepEqual(Object.keys(reply.body), Object.keys(example), `${name}: the members of the reference's example`);
    }
  });

  it("a contact's account contacts and organization answer as the reference's examples show them", async () => {
    const { account, contact } = await associated();
    for (const [name, root] of [
      ["accountContacts", "accountContacts"],
      ["organization", "organization"],
    ]) {
      const reply = await h.api("GET", `/api/3/contacts/${contact.id}/${name}`);
      const examples = reference.operation("GET", `/contacts/{id}/${name}`).responseExamples(200);
      assert.deepEqual(differences(reply.body, shapeOfExamples(examples), new Set()), [], name);
      assert.ok(JSON.stringify(reply.body[root]).includes(`"${account.id}"`), name);
    }
    assert.equal((await h.api("GET", `/api/3/contacts/${contact.id}/organization`)).body.organization.name, "Acme");
    assert.deepEqual((await h.api("GET", "/api/3/contacts/99/notes")).body, { message: "No Result found for Subscriber with id 99" });
  });

  it("a contact without an account is not given the organization link", async () => {
    const contact = (await h.api("POST", "/api/3/contacts", { contact: { email: "solo@example.test" } })).body.contact;
    assert.equal(contact.links.organization, undefined);
    assert.equal((await h.api("GET", `/api/3/contacts/${contact.id}/organization`)).status, 404);
  });

  it("every link of a listed account answers 200 JSON with what the account holds", async () => {
    const { account, contact } = await associated();
    const [listed] = (await h.api("GET", "/api/3/accounts")).body.accounts;
    const expected: Record<string, [string, (item: Record<string, unknown>) => unknown]> = {
      notes: ["notes", (item) => item.note],
      accountCustomFieldData: ["customerAccountCustomFieldData", (item) => item.fieldValue],
      accountContacts: ["accountContacts", (item) => item.contact],
    };
    assert.deepEqual(Object.keys(listed.links).sort(), Object.keys(expected).sort());
    for (const [name, link] of Object.entries(listed.links as Record<string, string>)) {
      const reply = await h.api("GET", `/api/3${pathOf(link)}`);
      assert.equal(reply.status, 200, `${name}: ${reply.status}`);
      assert.match(reply.headers.get("content-type") ?? "", /json/, name);
      const [root, linkedValue] = expected[name];
      assert.deepEqual(Object.keys(reply.body), [root], name);
      assert.deepEqual(
        reply.body[root].map(linkedValue),
        [{ notes: "Met at the fair", accountCustomFieldData: "500", accountContacts: contact.id }[name]],
        name,
      );
    }
    assert.equal((await h.api("GET", `/api/3/accounts/${Number(account.id) + 1}/notes`)).status, 404);
  });

  it('a contact shows its account in orgid, orgname and organization; none as the reference\'s "0", "" and null', async () => {
    const { account, contact } = await associated();
    const shown = (await h.api("GET", `/api/3/contacts/${contact.id}`)).body.contact;
    assert.deepEqual([shown.orgid, shown.orgname, shown.organization], [account.id, "Acme", account.id]);
    const listed = (await h.api("GET", `/api/3/contacts?organization=${account.id}`)).body.contacts;
    assert.deepEqual(
      listed.map((c: { organization: string }) => c.organization),
      [account.id],
    );
    const solo = (await h.api("POST", "/api/3/contacts", { contact: { email: "solo@example.test" } })).body.contact;
    assert.deepEqual([solo.orgid, solo.orgname, solo.organization], ["0", "", null]);
  });

  describe("PUT /contacts/{id}", () => {
    it("changes what is sent, keeps the rest, stores the fieldValues sent and answers {fieldValues, contact} as the reference", async () => {
      const { contact } = await associated();
      const field = (await h.api("POST", "/api/3/fields", { field: { title: "Country", type: "text" } })).body.field;
      const reply = await h.api("PUT", `/api/3/contacts/${contact.id}`, {
        contact: { email: "ann.lee@acme.test", lastName: "Lee", fieldValues: [{ field: field.id, value: "x" }] },
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(Object.keys(reply.body), ["fieldValues", "contact"]);
      assert.deepEqual(
        reply.body.fieldValues.map((v: { field: string; value: string }) => [v.field, v.value]),
        [[field.id, "x"]],
      );
      assert.deepEqual((await h.api("GET", `/api/3/contacts/${contact.id}/fieldValues`)).body.fieldValues, reply.body.fieldValues);
      const changed = reply.body.contact;
      assert.deepEqual([changed.id, changed.email, changed.firstName, changed.lastName], [contact.id, "ann.lee@acme.test", "Ann", "Lee"]);
      assert.deepEqual((await h.api("GET", `/api/3/contacts/${contact.id}`)).body.contact, changed);
    });

    it("answers 422 for a malformed email or one another contact has, changing nothing; 404 for an unknown id", async () => {
      await h.api("POST", "/api/3/contacts", { contact: { email: "bob@acme.test" } });
      const ann = (await h.api("POST", "/api/3/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      const taken = await h.api("PUT", `/api/3/contacts/${ann.id}`, { contact: { email: "BOB@acme.test", firstName: "Bobby" } });
      assert.equal(taken.status, 422);
      assert.equal(taken.body.errors[0].code, "duplicate");
      assert.equal((await h.api("PUT", `/api/3/contacts/${ann.id}`, { contact: { email: "not an email" } })).body.errors[0].code, "field_invalid");
      assert.deepEqual((await h.api("GET", `/api/3/contacts/${ann.id}`)).body.contact, ann);
      assert.deepEqual((await h.api("PUT", "/api/3/contacts/99", { contact: { firstName: "X" } })).body, {
        message: "No Result found for Subscriber with id 99",
      });
    });
  });

  it("every link the emulator writes, on any object of any collection, answers 200 JSON", async () => {
    const { account, contact } = await associated();
    const list = (
      await h.api("POST", "/api/3/lists", { list: { name: "News", stringid: "news", sender_url: "https://acme.test", sender_reminder: "Signed up" } })
    ).body.list;
    const tag = (await h.api("POST", "/api/3/tags", { tag: { tag: "VIP" } })).body.tag;
    const field = (await h.api("POST", "/api/3/fields", { field: { title: "Plan", type: "dropdown" } })).body.field;
    await h.api("POST", "/api/3/fieldOption/bulk", [{ field: field.id, value: "basic" }]);
    await h.api("PUT", `/api/3/contacts/${contact.id}`, { contact: { fieldValues: [{ field: field.id, value: "basic" }] } });
    await h.api("POST", "/api/3/contactLists", { contactList: { list: list.id, contact: contact.id, status: "1" } });
    const tagged = (await h.api("POST", "/api/3/contactTags", { contactTag: { contact: contact.id, tag: tag.id } })).body;
    await h.api("POST", "/api/3/addresses", { address: { company_name: "Acme", address_1: "1 Main St", country: "US", listid: list.id } });
    await h.api("POST", "/api/3/calendars", { calendar: { title: "Tasks", type: "All" } });
    await h.api("POST", "/api/3/messages", { message: { fromname: "Acme", fromemail: "news@acme.test", reply2: "help@acme.test" } });
    await h.api("POST", "/api/3/savedResponses", { savedResponse: { title: "Thanks", body: "Thank you" } });
    const enrolled = (await h.api("POST", "/api/3/contactAutomations", { contactAutomation: { contact: contact.id, automation: 1 } })).body;
    const permitted = (await h.api("POST", "/api/3/listGroups", { listGroup: { listid: list.id, groupid: 3 } })).body;
    const answers = [tagged, enrolled, permitted];
    for (const path of [
      "/accounts",
      `/accounts/${account.id}`,
      "/accountContacts",
      "/accountCustomFieldMeta",
      "/accountCustomFieldData",
      "/addresses",
      "/notes",
      "/calendars",
      "/messages",
      "/automations",
      "/campaigns?limit=10",
      "/lists",
      "/tags",
      `/fields/${field.id}`,
      "/savedResponses",
      "/webhooks",
      `/contacts/${contact.id}`,
    ]) {
      answers.push((await h.api("GET", `/api/3${path}`)).body);
    }
    // Every {links: {name: url}} anywhere in the answers; one object per collection and link name is enough.
    const links = new Map<string, string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) {
        for (const member of value) walk(member);
        return;
      }
      if (typeof value !== "object" || value === null) return;
      const record = value as Record<string, unknown>;
      if (typeof record.links === "object" && record.links !== null && !Array.isArray(record.links)) {
        for (const link of Object.values(record.links as Record<string, string>)) links.set(pathOf(link).replace(/\/\d+\//, "/{id}/"), link);
      }
      Object.values(record).forEach(walk);
    };
    walk(answers);
    assert.ok(links.size >= 69, `${links.size} kinds of link`);
    const broken: string[] = [];
    for (const [kind, link] of links) {
      const reply = await h.api("GET", `/api/3${pathOf(link)}`);
      if (reply.status !== 200 || !/json/.test(reply.headers.get("content-type") ?? "")) broken.push(`${kind}: ${reply.status}`);
    }
    assert.deepEqual(broken, []);
  });

  it("sdk-docs/emulator.md lists exactly the operations the CRM router serves", () => {
    const doc = readFileSync(join(__dirname, "../../sdk-docs/emulator.md"), "utf8");
    const table = doc.slice(doc.indexOf("| Resource | Operations |"), doc.indexOf("\n\n", doc.indexOf("| Resource | Operations |")));
    const listed = [...table.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/[^`]*)`/g)].map((match) => match[1]);
    const served = createCrmService({ can: () => true }).operations();
    assert.deepEqual([...listed].sort(), [...served].sort());
  });
});
