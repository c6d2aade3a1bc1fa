// The contacts' side of an account (issue 46): lists, tags, contact custom fields with their
// options and list relations, personalization variables, saved responses and webhooks, and a
// contact's tags, lists and field values as contacts and the bulk import write them. What the
// reference's examples show of each answer is test/contract/crm.test.ts's; here, the rules.

import assert from "node:assert/strict";
import { ReferenceDocument } from "../contract/reference";
import { differences, shapeOfExamples } from "../contract/shape";
import { startHarness, type Harness, type Reply } from "./harness";

const reference = new ReferenceDocument("crm-v3.openapi.json");

describe("CRM lists, tags, contact fields, variables, saved responses and webhooks", () => {
  let h: Harness;
  before(async () => (h = await startHarness({ bulkImportDelayMs: 0 })));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const post = (path: string, body: unknown) => h.api("POST", `/api/3${path}`, body);
  const get = (path: string) => h.api("GET", `/api/3${path}`);
  const errorOf = (reply: Reply) => [reply.status, reply.body.errors[0].code, reply.body.errors[0].source?.pointer];

  const newList = async (name = "Newsletter") =>
    (await post("/lists", { list: { name, stringid: name.toLowerCase(), sender_url: "https://acme.test", sender_reminder: "You signed up." } })).body.list;

  describe("lists", () => {
    it("POST answers 200 {list}, requiring name, stringid, sender_url and sender_reminder", async () => {
      const created = await post("/lists", { list: { name: "News", stringid: "news", sender_url: "https://acme.test", sender_reminder: "You signed up." } });
      assert.equal(created.status, 200);
      assert.deepEqual([created.body.list.name, created.body.list.stringid, created.body.list.userid], ["News", "news", "1"]);
      for (const field of ["name", "stringid", "sender_url", "sender_reminder"]) {
        const list: Record<string, string> = { name: "x", stringid: "x", sender_url: "https://acme.test", sender_reminder: "r" };
        delete list[field];
        assert.deepEqual(errorOf(await post("/lists", { list })), [422, "field_missing", `/data/attributes/${field}`], field);
      }
    });

    it("has no update, as the reference: PUT answers 405 naming what is allowed", async () => {
      const list = await newList();
      const put = await h.api("PUT", `/api/3/lists/${list.id}`, { list: { name: "Renamed" } });
      assert.equal(put.status, 405);
      assert.equal(put.headers.get("allow"), "GET, DELETE");
    });

    it("filters by name; DELETE answers {} then 404 naming _List, and takes the list's subscriptions with it", async () => {
      const news = await newList("News");
      await newList("Offers");
      assert.deepEqual(
        (await get("/lists?filters[name]=news")).body.lists.map((l: { id: string }) => l.id),
        [news.id],
      );
      assert.deepEqual((await get("/lists?filters[name][contains]=FF")).body.meta, { total: "1" });
      const contact = (await post("/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      await post("/contactLists", { contactList: { list: news.id, contact: contact.id, status: "1" } });
      assert.deepEqual((await h.api("DELETE", `/api/3/lists/${news.id}`)).body, {});
      assert.deepEqual((await get(`/lists/${news.id}`)).body, { message: `No Result found for _List with id ${news.id}` });
      assert.deepEqual((await get(`/contacts/${contact.id}/contactLists`)).body, { contactLists: [] });
    });
  });

  describe("tags", () => {
    it("names are unique per type, regardless of case: a create or rename onto a taken name answers 422 duplicate", async () => {
      const vip = await post("/tags", { tag: { tag: "VIP", tagType: "contact", description: "Best customers" } });
      assert.equal(vip.status, 201);
      assert.deepEqual(errorOf(await post("/tags", { tag: { tag: "vip", tagType: "contact" } })), [422, "duplicate", "/data/attributes/tag"]);
      const template = await post("/tags", { tag: { tag: "VIP", tagType: "template" } });
      assert.equal(template.status, 201);
      assert.deepEqual(errorOf(await h.api("PUT", `/api/3/tags/${template.body.tag.id}`, { tag: { tagType: "contact" } })), [
        422,
        "duplicate",
        "/data/attributes/tag",
      ]);
      assert.equal((await get(`/tags/${template.body.tag.id}`)).body.tag.tagType, "template");
    });

    it("takes tagType contact (the default) or template, requires the name; search finds by part of it", async () => {
      assert.equal((await post("/tags", { tag: { tag: "Lead" } })).body.tag.tagType, "contact");
      assert.deepEqual(errorOf(await post("/tags", { tag: { tag: "x", tagType: "deal" } })), [422, "field_invalid", "/data/attributes/tagType"]);
      assert.deepEqual(errorOf(await post("/tags", { tag: { tag: " " } })), [422, "field_missing", "/data/attributes/tag"]);
      await post("/tags", { tag: { tag: "Customer" } });
      assert.deepEqual(
        (await get("/tags?search=ead")).body.tags.map((t: { tag: string }) => t.tag),
        ["Lead"],
      );
      assert.deepEqual((await get("/tags?filters[search][starts_with]=cust")).body.meta, { total: "1" });
    });

    it("GET one counts its contacts; DELETE answers {} then 404 {message} naming Tag", async () => {
      const tag = (await post("/tags", { tag: { tag: "VIP" } })).body.tag;
      const contact = (await post("/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      const tagged = await post("/contactTags", { contactTag: { contact: Number(contact.id), tag: Number(tag.id) } });
      assert.equal(tagged.status, 201);
      assert.equal((await get(`/tags/${tag.id}`)).body.tag.subscriber_count, "1");
      assert.deepEqual(
        (await get(`/contacts?tagid=${tag.id}`)).body.contacts.map((c: { id: string }) => c.id),
        [contact.id],
      );
      assert.deepEqual((await h.api("DELETE", `/api/3/tags/${tag.id}`)).body, {});
      assert.deepEqual((await get(`/tags/${tag.id}`)).body, { message: `No Result found for Tag with id ${tag.id}` });
      assert.deepEqual((await h.api("DELETE", `/api/3/contactTags/${tagged.body.contactTag.id}`)).body, {
        message: `No Result found for SubscriberTag with id ${tagged.body.contactTag.id}`,
      });
    });

    it("POST /contactTags answers 404 {errors} for an unknown contact or tag, as the reference", async () => {
      const tag = (await post("/tags", { tag: { tag: "VIP" } })).body.tag;
      const reply = await post("/contactTags", { contactTag: { contact: 99, tag: Number(tag.id) } });
      assert.deepEqual([reply.status, reply.body], [404, { errors: [{ status: 404, title: "Not Found", detail: "Contact not found" }] }]);
    });
  });

  describe("contact custom fields", () => {
    const newField = async (title = "Plan", type = "dropdown") => (await post("/fields", { field: { title, type } })).body.field;

    it("POST answers 201 with the field, its perstag made from the title; a taken title is the reference's 422", async () => {
      const reply = await post("/fields", { field: { title: "Customer group", type: "dropdown" } });
      assert.equal(reply.status, 201);
      assert.deepEqual([reply.body.field.perstag, reply.body.field.visible, reply.body.fieldOptions], ["CUSTOMER_GROUP", 1, []]);
      const taken = await post("/fields", { field: { title: "customer group", type: "text" } });
      assert.deepEqual(taken.body, {
        errors: [
          {
            title: "There is already a field with this title",
            detail: "There is already a field named 'customer group' -- choose another name",
            code: "duplicate",
          },
        ],
      });
      assert.deepEqual(errorOf(await post("/fields", { field: { title: "Odd", type: "number" } })), [422, "field_invalid", "/data/attributes/type"]);
    });

    it("options come in bulk and relations one by one (relid 0: every list), answered beside the field and listed on it", async () => {
      const field = await newField();
      const list = await newList();
      const options = await post("/fieldOption/bulk", {
        fieldOptions: [
          { field: Number(field.id), label: "Basic", value: "basic", orderid: 1 },
          { field: Number(field.id), label: "Pro", value: "pro", orderid: 2 },
        ],
      });
      assert.equal(options.status, 201);
      assert.deepEqual(
        options.body.fieldOptions.map((o: { value: string; orderid: number }) => [o.value, o.orderid]),
        [
          ["basic", 1],
          ["pro", 2],
        ],
      );
      const everyList = await post("/fieldRels", { fieldRel: { field: Number(field.id), relid: 0 } });
      assert.deepEqual([everyList.status, everyList.body.fieldRel.relid], [201, 0]);
      await post("/fieldRels", { fieldRel: { field: Number(field.id), relid: Number(list.id) } });
      const read = (await get(`/fields/${field.id}`)).body;
      assert.deepEqual(
        read.field.options,
        options.body.fieldOptions.map((o: { id: string }) => o.id),
      );
      assert.deepEqual(
        read.fieldRels.map((r: { relid: string }) => r.relid),
        ["0", list.id],
      );
      assert.deepEqual(
        read.field.relations,
        read.fieldRels.map((r: { id: string }) => r.id),
      );
      assert.deepEqual(
        (await get(`/fields/${field.id}/options`)).body.fieldOptions.map((o: { label: string }) => o.label),
        ["Basic", "Pro"],
      );
      // An option removed behind a program's back (an emulator extension), then the field with what is left.
      await h.api("DELETE", `/api/3/fieldOptions/${options.body.fieldOptions[0].id}`);
      assert.deepEqual(
        (await get(`/fields/${field.id}`)).body.fieldOptions.map((o: { value: string }) => o.value),
        ["pro"],
      );
      assert.deepEqual((await h.api("DELETE", `/api/3/fields/${field.id}`)).body, {});
      assert.deepEqual((await get(`/fieldOptions/${options.body.fieldOptions[1].id}`)).status, 404);
      assert.deepEqual((await get(`/fields/${field.id}`)).body, { message: `No Result found for Field with id ${field.id}` });
    });

    it("refuses a bulk body that is not an array of options, an option of an unknown field and a relation to an unknown list, writing nothing", async () => {
      const field = await newField();
      assert.deepEqual((await post("/fieldOption/bulk", { fieldOption: { field: field.id, value: "x" } })).body, {
        errors: "Bulk operation failed. Request must contain an array of fieldOption objects.",
      });
      const partly = await post("/fieldOption/bulk", {
        fieldOptions: [
          { field: field.id, value: "a" },
          { field: 99, value: "b" },
        ],
      });
      assert.deepEqual(errorOf(partly), [422, "field_invalid", "/data/attributes/field"]);
      assert.deepEqual((await get(`/fields/${field.id}`)).body.fieldOptions, []);
      assert.deepEqual(errorOf(await post("/fieldRels", { fieldRel: { field: Number(field.id), relid: 42 } })), [
        422,
        "field_invalid",
        "/data/attributes/relid",
      ]);
    });

    it("lists the fields with every one's options and relations beside them, filtered by perstag", async () => {
      const plan = await newField("Plan");
      await newField("Region", "text");
      await post("/fieldOption/bulk", [{ field: Number(plan.id), value: "basic" }]);
      const listed = (await get("/fields?filters[perstag]=PLAN")).body;
      assert.deepEqual([listed.fields.length, listed.fieldOptions.length, listed.meta.total], [1, 1, "1"]);
      // A page of 100 without limit=, as the reference's default.
      for (let n = 0; n < 25; n++) await newField(`Field ${n}`, "text");
      assert.equal((await get("/fields")).body.fields.length, 27);
    });
  });

  describe("personalization variables", () => {
    it("POST answers 200 with listids as sent; reads add listIds, listNames and listsCount; tags are unique; format is html or text", async () => {
      const list = await newList("News");
      const reply = await post("/personalizations", {
        personalization: { tag: "company-address", name: "Address", format: "text", content: "1 Main St", listids: list.id },
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.personalization.listids, list.id);
      const read = (await get(`/personalizations/${reply.body.personalization.id}`)).body.personalization;
      assert.deepEqual([read.listIds, read.listNames, read.listsCount], [list.id, "News", "1"]);
      assert.deepEqual(errorOf(await post("/personalizations", { personalization: { tag: "COMPANY-ADDRESS", name: "Other" } })), [
        422,
        "duplicate",
        "/data/attributes/tag",
      ]);
      assert.deepEqual(errorOf(await post("/personalizations", { personalization: { tag: "x", name: "x", format: "pdf" } })), [
        422,
        "field_invalid",
        "/data/attributes/format",
      ]);
      assert.deepEqual((await get("/personalizations/99")).body, { message: "No Result found for Personalization with id 99" });
    });

    it("DELETE /personalizations/bulkdelete?ids= deletes the ones named", async () => {
      const ids: string[] = [];
      for (const tag of ["a", "b", "c"]) ids.push((await post("/personalizations", { personalization: { tag, name: tag } })).body.personalization.id);
      const reply = await h.api("DELETE", `/api/3/personalizations/bulkdelete?ids=${ids[0]},${ids[2]}`);
      assert.deepEqual([reply.status, reply.body], [200, "Delete successful"]);
      assert.deepEqual(
        (await get("/personalizations")).body.personalizations.map((p: { id: string }) => p.id),
        [ids[1]],
      );
    });
  });

  describe("saved responses", () => {
    it("POST answers 201; without a title, or without both subject and body, the reference's 422s", async () => {
      assert.equal((await post("/savedResponses", { savedResponse: { title: "Thanks", body: "Thank you!" } })).status, 201);
      assert.deepEqual(errorOf(await post("/savedResponses", { savedResponse: { subject: "s" } })), [422, "field_missing", "/data/attributes/title"]);
      const neither = await post("/savedResponses", { savedResponse: { title: "Empty" } });
      assert.deepEqual(
        neither.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]),
        [
          ["field_invalid", "/data/attributes/subject"],
          ["field_invalid", "/data/attributes/body"],
        ],
      );
    });
  });

  describe("webhooks", () => {
    const hook = { name: "CRM sync", url: "https://hooks.acme.test/crm", events: ["subscribe", "update"], sources: ["public", "api"] };

    it("POST answers 201; GET /webhook/events lists the events a webhook may take", async () => {
      const reply = await post("/webhooks", { webhook: hook });
      assert.deepEqual([reply.status, reply.body.webhook.listid, reply.body.webhook.events], [201, "0", ["subscribe", "update"]]);
      const events = (await get("/webhook/events")).body;
      assert.ok(events.webhookEvents.includes("contact_tag_added"));
      assert.equal(events.meta.total, events.webhookEvents.length);
    });

    it("refuses unknown events or sources (naming them), a URL that is not http(s), a list that does not exist", async () => {
      const refused = await post("/webhooks", { webhook: { ...hook, events: ["subscribe", "teleport"] } });
      assert.deepEqual(errorOf(refused), [422, "field_invalid", "/data/attributes/events"]);
      assert.match(refused.body.errors[0].title, /teleport/);
      assert.deepEqual(errorOf(await post("/webhooks", { webhook: { ...hook, sources: ["fax"] } })), [422, "field_invalid", "/data/attributes/sources"]);
      assert.deepEqual(errorOf(await post("/webhooks", { webhook: { ...hook, url: "ftp://acme.test" } })), [422, "field_invalid", "/data/attributes/url"]);
      assert.deepEqual(errorOf(await post("/webhooks", { webhook: { ...hook, events: [] } })), [422, "field_missing", "/data/attributes/events"]);
      assert.deepEqual(errorOf(await post("/webhooks", { webhook: { ...hook, listid: 7 } })), [422, "field_invalid", "/data/attributes/listid"]);
    });

    it("lists webhooks as the reference's webhook examples show them, filtered by list; PUT changes what is sent", async () => {
      const list = await newList();
      const onList = (await post("/webhooks", { webhook: { ...hook, listid: Number(list.id) } })).body.webhook;
      await post("/webhooks", { webhook: { ...hook, name: "Other" } });
      const listed = (await get(`/webhooks?filters[listid]=${list.id}`)).body;
      assert.deepEqual([listed.webhooks.map((w: { id: string }) => w.id), listed.meta.total], [[onList.id], "1"]);
      const shape = shapeOfExamples(
        reference
          .operation("GET", "/webhooks/{id}")
          .responseExamples(200)
          .map((example) => (example as { webhook: unknown }).webhook),
      );
      assert.deepEqual(differences(listed.webhooks[0], shape), []);
      const changed = await h.api("PUT", `/api/3/webhooks/${onList.id}`, { webhook: { url: "http://hooks.acme.test/other" } });
      assert.deepEqual([changed.body.webhook.url, changed.body.webhook.name], ["http://hooks.acme.test/other", "CRM sync"]);
    });
  });

  describe("a contact's lists, tags and field values", () => {
    it("POST /contactLists subscribes, then unsubscribes; GET /contacts?listid=&status= selects by it", async () => {
      const list = await newList();
      const contact = (await post("/contacts", { contact: { email: "ann@acme.test", firstName: "Ann" } })).body.contact;
      const subscribed = await post("/contactLists", { contactList: { list: list.id, contact: contact.id, status: "1" } });
      assert.deepEqual(
        [subscribed.status, subscribed.body.contactList.status, subscribed.body.contactList.first_name, subscribed.body.contacts[0].id],
        [200, "1", "Ann", contact.id],
      );
      assert.equal((await get(`/contacts?listid=${list.id}&status=1`)).body.meta.total, "1");
      await post("/contactLists", { contactList: { list: list.id, contact: contact.id, status: "2" } });
      assert.equal((await get(`/contacts?listid=${list.id}&status=1`)).body.meta.total, "0");
      assert.deepEqual(
        (await get(`/contacts/${contact.id}/contactLists`)).body.contactLists.map((cl: { status: string }) => cl.status),
        ["2"],
      );
    });

    it("stores the fieldValues a contact is created or synced with; an unknown field is a 422 that writes nothing", async () => {
      const field = (await post("/fields", { field: { title: "Region", type: "text" } })).body.field;
      const created = await post("/contacts", { contact: { email: "ann@acme.test", fieldValues: [{ field: field.id, value: "North" }] } });
      assert.deepEqual(
        created.body.fieldValues.map((v: { field: string; value: string }) => [v.field, v.value]),
        [[field.id, "North"]],
      );
      const synced = await post("/contact/sync", { contact: { email: "ann@acme.test", fieldValues: [{ field: field.id, value: "South" }] } });
      assert.deepEqual(
        synced.body.fieldValues.map((v: { value: string }) => v.value),
        ["South"],
      );
      assert.deepEqual(errorOf(await post("/contacts", { contact: { email: "bob@acme.test", fieldValues: [{ field: "99", value: "x" }] } })), [
        422,
        "field_invalid",
        "/data/attributes/fieldValues/0/field",
      ]);
      assert.equal((await get("/contacts?email=bob@acme.test")).body.meta.total, "0");
    });

    it("POST /fieldValues makes the contact's value of a field, or changes the one it has; the list filters by field", async () => {
      const field = (await post("/fields", { field: { title: "Region", type: "text" } })).body.field;
      const contact = (await post("/contacts", { contact: { email: "ann@acme.test" } })).body.contact;
      const made = await post("/fieldValues", { fieldValue: { contact: contact.id, field: field.id, value: "North" } });
      assert.deepEqual([made.status, made.body.fieldValue.value, made.body.contacts[0].id], [200, "North", contact.id]);
      const changed = await post("/fieldValues", { fieldValue: { contact: contact.id, field: field.id, value: "South" } });
      assert.deepEqual([changed.body.fieldValue.id, changed.body.fieldValue.value], [made.body.fieldValue.id, "South"]);
      assert.deepEqual(
        (await get(`/fieldValues?filters[fieldid]=${field.id}`)).body.fieldValues.map((v: { value: string }) => v.value),
        ["South"],
      );
      assert.deepEqual(errorOf(await post("/fieldValues", { fieldValue: { contact: contact.id, field: "99", value: "x" } })), [
        422,
        "field_invalid",
        "/data/attributes/field",
      ]);
    });

    it("GET /contacts/{id} answers the contact with its automations, lists, deals, field values and geography, as the reference's example", async () => {
      const list = await newList();
      const field = (await post("/fields", { field: { title: "Region", type: "text" } })).body.field;
      const contact = (await post("/contacts", { contact: { email: "ann@acme.test", fieldValues: [{ field: field.id, value: "North" }] } })).body.contact;
      await post("/contactLists", { contactList: { list: list.id, contact: contact.id, status: "1" } });
      const reply = (await get(`/contacts/${contact.id}`)).body;
      assert.deepEqual(Object.keys(reply), ["contactAutomations", "contactLists", "deals", "fieldValues", "geoAddresses", "geoIps", "contact"]);
      assert.deepEqual([reply.contactLists[0].list, reply.fieldValues[0].value], [list.id, "North"]);
      assert.deepEqual([reply.contact.contactLists, reply.contact.fieldValues], [[reply.contactLists[0].id], [reply.fieldValues[0].id]]);
    });

    it("the bulk import writes each row's fields, adds its tags (making the ones no tag has, never removing any) and its subscriptions", async () => {
      const list = await newList();
      const field = (await post("/fields", { field: { title: "Region", type: "text" } })).body.field;
      const vip = (await post("/tags", { tag: { tag: "VIP" } })).body.tag;
      const row = { email: "ann@acme.test", tags: ["vip", "Imported"], fields: [{ id: Number(field.id), value: "North" }], subscribe: [{ listid: list.id }] };
      const batch = await post("/import/bulk_import", { contacts: [row, { email: "bob@acme.test", subscribe: [{ listid: "99" }] }] });
      let info: Reply;
      do info = await get(`/import/info?batchId=${batch.body.batchId}`);
      while (info.body.status !== "completed");
      assert.deepEqual([info.body.success, info.body.failure], [["1"], ["bob@acme.test"]]);
      const contact = (await get("/contacts/1")).body;
      assert.deepEqual([contact.fieldValues[0].value, contact.contactLists[0].list], ["North", list.id]);
      const imported = (await get("/tags?search=Imported")).body.tags[0];
      for (const tag of [vip, imported]) assert.equal((await get(`/contacts?tagid=${tag.id}`)).body.meta.total, "1", tag.tag);
      // A second import without the tags removes none.
      await post("/import/bulk_import", { contacts: [{ email: "ann@acme.test", tags: [] }] });
      do info = await get("/import/bulk_import");
      while (info.body.outstanding.length > 0);
      assert.equal((await get(`/tags/${vip.id}`)).body.tag.subscriber_count, "1");
    });
  });
});
