// Contacts' enrolments in automations (/contactAutomations, issue 54): added, listed, read and
// removed, and shown where a contact and an automation show theirs. What the reference's
// examples show of each answer is test/contract/crm.test.ts's; here, the rules.

import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

describe("CRM contacts' automations (/contactAutomations)", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const post = (path: string, body: unknown) => h.api("POST", `/api/3${path}`, body);
  const get = (path: string) => h.api("GET", `/api/3${path}`);
  const newContact = async (email: string) => (await post("/contacts", { contact: { email } })).body.contact;
  const enrol = (contact: unknown, automation: unknown) => post("/contactAutomations", { contactAutomation: { contact, automation } });

  it("POST answers 201 with the contact and the enrolment as the reference's create example, its counters as numbers", async () => {
    const contact = await newContact("ann@acme.test");
    const reply = await enrol(Number(contact.id), "2");
    assert.equal(reply.status, 201);
    assert.deepEqual(Object.keys(reply.body), ["contacts", "contactAutomation"]);
    assert.deepEqual(
      reply.body.contacts.map((c: { id: string; email: string }) => [c.id, c.email]),
      [[contact.id, "ann@acme.test"]],
    );
    const { links, ...made } = reply.body.contactAutomation;
    assert.deepEqual(made, {
      contact: contact.id,
      seriesid: "2",
      startid: 0,
      status: 1,
      lastblock: "0",
      completedElements: "0",
      totalElements: "0",
      completed: 0,
      completeValue: 0,
      id: "1",
      automation: "2",
    });
    const base = `${h.emulator.crmUrl}/api/3/contactAutomations/1`;
    const names = ["automation", "contact", "contactGoals", "automationLogs"];
    assert.deepEqual(links, Object.fromEntries(names.map((name) => [name, `${base}/${name}`])));
  });

  it("GET /{id} answers the enrolment as the reference's read example; GET lists it with meta.total as a string", async () => {
    const contact = await newContact("ann@acme.test");
    await enrol(contact.id, 3);
    const read = await get("/contactAutomations/1");
    assert.equal(read.status, 200);
    const { adddate, lastdate, links, ...enrolment } = read.body.contactAutomation;
    assert.match(adddate, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-05:00$/);
    assert.equal(lastdate, adddate);
    assert.equal(Object.keys(links).length, 4);
    assert.deepEqual(enrolment, {
      contact: contact.id,
      automation: "3",
      startid: "0",
      status: "1",
      batchid: null,
      remdate: "0000-00-00 00:00:00",
      timespan: "0",
      lastblock: "0",
      lastlogid: "0",
      completedElements: "0",
      totalElements: "0",
      completed: 0,
      completeValue: 0,
      seriesid: "3",
      id: "1",
    });
    const listed = await get("/contactAutomations");
    assert.deepEqual(listed.body, { contactAutomations: [read.body.contactAutomation], meta: { total: "1", showcase_stats: [] } });
  });

  it("lists by filters[seriesid], filters[subscriberid] and filters[status], ordered by orders[lastdate]", async () => {
    const [ann, bob] = [await newContact("ann@acme.test"), await newContact("bob@acme.test")];
    for (const [contact, automation] of [
      [ann, 1],
      [ann, 2],
      [bob, 2],
    ] as const) {
      assert.equal((await enrol(contact.id, automation)).status, 201);
      // Apart by a millisecond at least, so that lastdate orders them.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const ids = async (query: string) => {
      const { contactAutomations, meta } = (await get(`/contactAutomations?${query}`)).body;
      return [contactAutomations.map((ca: { id: string }) => ca.id).join(), meta.total];
    };
    assert.deepEqual(await ids("filters[seriesid]=2"), ["2,3", "2"]);
    assert.deepEqual(await ids(`filters[subscriberid]=${ann.id}`), ["1,2", "2"]);
    assert.deepEqual(await ids(`filters[subscriberid]=${bob.id}&filters[seriesid]=1`), ["", "0"]);
    assert.deepEqual(await ids("filters[status]=2"), ["", "0"]);
    assert.deepEqual(await ids("filters[status]=1&orders[lastdate]=DESC&limit=2"), ["3,2", "3"]);
  });

  it("an enrolment shows in the contact's sideload, its link, its ids and the automation's link, and is gone from all after DELETE", async () => {
    const contact = await newContact("ann@acme.test");
    const made = (await enrol(contact.id, 4)).body.contactAutomation;
    const shown = async () => {
      const read = (await get(`/contacts/${contact.id}`)).body;
      const link = (await get(`/contacts/${contact.id}/contactAutomations`)).body;
      const ofAutomation = (await get("/automations/4/contactAutomations")).body;
      assert.deepEqual(link, { contactAutomations: read.contactAutomations });
      assert.deepEqual(ofAutomation, link);
      assert.deepEqual(
        read.contact.contactAutomations,
        read.contactAutomations.map((ca: { id: string }) => ca.id),
      );
      return read.contactAutomations.map((ca: { id: string; automation: string }) => [ca.id, ca.automation]);
    };
    assert.deepEqual(await shown(), [[made.id, "4"]]);
    assert.deepEqual(
      (await get("/contacts?seriesid=4")).body.contacts.map((c: { id: string }) => c.id),
      [contact.id],
    );
    assert.equal((await get("/contacts?seriesid=5")).body.meta.total, "0");

    const removed = await h.api("DELETE", `/api/3/contactAutomations/${made.id}`);
    assert.deepEqual([removed.status, removed.body], [200, {}]);
    assert.deepEqual(await shown(), []);
    const gone = { message: `No Result found for SubscriberSeries with id ${made.id}` };
    assert.deepEqual([(await get(`/contactAutomations/${made.id}`)).status, (await get(`/contactAutomations/${made.id}`)).body], [404, gone]);
    const again = await h.api("DELETE", `/api/3/contactAutomations/${made.id}`);
    assert.deepEqual([again.status, again.body], [404, gone]);
  });

  it("its links lead to the automation and the contact", async () => {
    const contact = await newContact("ann@acme.test");
    const { links } = (await enrol(contact.id, 1)).body.contactAutomation;
    const pathOf = (link: string) => new URL(link).pathname;
    assert.equal((await h.api("GET", pathOf(links.automation))).body.automation.id, "1");
    assert.equal((await h.api("GET", pathOf(links.contact))).body.contact.email, "ann@acme.test");
    assert.deepEqual((await h.api("GET", pathOf(links.contactGoals))).body, { contactGoals: [] });
  });

  it("refuses an unknown contact or automation and a second enrolment in one automation with the reference's 403, adding nothing", async () => {
    const contact = await newContact("ann@acme.test");
    assert.equal((await enrol(contact.id, 1)).status, 201);
    const refused = { message: "Could not create SubscriberSeries" };
    for (const [who, what] of [
      [contact.id, 1],
      [contact.id, 999],
      [99, 1],
    ]) {
      const reply = await enrol(who, what);
      assert.deepEqual([reply.status, reply.body], [403, refused], `${who} in ${what}`);
    }
    assert.equal((await get("/contactAutomations")).body.meta.total, "1");
  });

  it("answers 422 field_missing without a contact or an automation, and 405 to an update", async () => {
    const contact = await newContact("ann@acme.test");
    for (const [attrs, field] of [
      [{ automation: 1 }, "contact"],
      [{ contact: contact.id }, "automation"],
    ] as const) {
      const reply = await post("/contactAutomations", { contactAutomation: attrs });
      assert.equal(reply.status, 422);
      assert.deepEqual([reply.body.errors[0].code, reply.body.errors[0].source.pointer], ["field_missing", `/data/attributes/${field}`]);
    }
    assert.equal((await h.api("PUT", "/api/3/contactAutomations/1", { contactAutomation: { automation: 2 } })).status, 405);
  });

  it("deleting a contact removes its enrolments", async () => {
    const contact = await newContact("ann@acme.test");
    await enrol(contact.id, 1);
    await h.api("DELETE", `/api/3/contacts/${contact.id}`);
    assert.deepEqual((await get("/contactAutomations")).body.contactAutomations, []);
    assert.deepEqual((await get("/automations/1/contactAutomations")).body, { contactAutomations: [] });
  });
});
