// The CRM's configuration kinds as the reference describes them: connections, deal roles,
// task outcomes and the task types that offer them, custom fields in field groups, and the
// account's settings. Each answer is held to the members and JSON types of the reference's
// examples (test/contract/shape.ts) and, where its schema agrees with its examples, to its schema;
// each refusal the reference shows is answered as it shows it.

import assert from "node:assert/strict";
import { schemaErrors } from "../contract/harness";
import { ReferenceDocument } from "../contract/reference";
import { differences, shapeOfExamples } from "../contract/shape";
import { startHarness, type Harness, type Reply } from "./harness";

const reference = new ReferenceDocument("crm-v3.openapi.json");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const examplesOf = (method: string, template: string, status = 200): any[] => reference.operation(method, template).responseExamples(status);

/** The body carries every member of the reference's examples of the operation, with their JSON types. */
function likeExamples(body: unknown, method: string, template: string, status = 200): void {
  assert.deepEqual(differences(body, shapeOfExamples(examplesOf(method, template, status))), [], `${method} ${template}`);
}

/** The body validates against the reference's response schema of the operation. */
function validates(body: unknown, method: string, template: string, status = 200): void {
  assert.equal(schemaErrors(reference.operation(method, template).responseSchema(status)!, body), undefined, `${method} ${template}`);
}

describe("CRM configuration kinds", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  const call = (method: string, path: string, body?: unknown): Promise<Reply> => h.api(method, `/api/3${path}`, body);
  const status = (reply: Reply) => [reply.status, reply.body];
  /** The code and the field each 422 error names. */
  const refusal = (reply: Reply) => [
    reply.status,
    ...reply.body.errors.map((e: { code: string; source: { pointer: string } }) => `${e.code} ${e.source.pointer}`),
  ];

  describe("connections", () => {
    const toystore = {
      service: "fooCommerce",
      externalid: "toystore123",
      name: "Toystore, Inc.",
      logoUrl: "http://example.com/i/foo.png",
      linkUrl: "http://example.com/foo/",
    };
    const create = (connection: Record<string, unknown> = toystore) => call("POST", "/connections", { connection });

    it("creates one (200, as the reference's example: isInternal 0, no status), reads it back whole and lists it", async () => {
      const created = await create({ ...toystore, status: 0, syncStatus: 1 });
      assert.equal(created.status, 200);
      likeExamples(created.body, "POST", "/connections");
      validates(created.body, "POST", "/connections");
      const { connection } = created.body;
      assert.deepEqual([connection.isInternal, connection.status, connection.syncStatus, connection.lastSync], [0, undefined, undefined, undefined]);
      for (const [member, value] of Object.entries(toystore)) assert.equal(connection[member], value, member);

      const read = await call("GET", `/connections/${connection.id}`);
      likeExamples(read.body, "GET", "/connections/{id}");
      // The create takes no status: a new connection is connected, not syncing.
      assert.deepEqual(
        [read.body.connection.isInternal, read.body.connection.status, read.body.connection.syncStatus, read.body.connection.lastSync],
        ["0", "1", "0", null],
      );
      assert.equal(read.body.connection.cdate, connection.cdate);

      const listed = await call("GET", "/connections");
      likeExamples(listed.body, "GET", "/connections");
      assert.deepEqual([listed.body.connections, listed.body.meta.total], [[read.body.connection], "1"]);
      assert.deepEqual(status(await call("GET", `/connections/${connection.id}/customers`)), [200, { customers: [] }]);
    });

    it("lists by filters[service] and filters[externalid], paged by limit and offset", async () => {
      await create();
      await create({ ...toystore, service: "barCommerce" });
      await create({ ...toystore, externalid: "acme" });
      const ids = async (query: string) => (await call("GET", `/connections?${query}`)).body.connections.map((c: { id: string }) => c.id);
      assert.deepEqual(await ids("filters[service]=fooCommerce"), ["1", "3"]);
      assert.deepEqual(await ids("filters[externalid]=toystore123"), ["1", "2"]);
      assert.deepEqual(await ids("limit=1&offset=1"), ["2"]);
      assert.equal((await call("GET", "/connections?limit=1")).body.meta.total, "3");
    });

    it("refuses a create missing any of its five members, and a second of one service and external id", async () => {
      for (const member of Object.keys(toystore)) {
        const rest: Record<string, unknown> = { ...toystore };
        delete rest[member];
        assert.deepEqual(refusal(await create(rest)), [422, `field_missing /data/attributes/${member}`], member);
        assert.deepEqual(refusal(await create({ ...toystore, [member]: " " })), [422, `field_missing /data/attributes/${member}`], member);
      }
      await create();
      assert.deepEqual(refusal(await create({ ...toystore, name: "Other" })), [422, "duplicate /data/attributes/externalid"]);
      assert.equal((await call("GET", "/connections")).body.meta.total, "1");
    });

    it("updates what is sent (the reference's update answer), keeps the rest, refuses a taken pair; unknown ids 404", async () => {
      const { id } = (await create()).body.connection;
      const other = (await create({ ...toystore, externalid: "other" })).body.connection;
      const updated = await call("PUT", `/connections/${id}`, {
        connection: { externalid: "johndoe@example.com", name: "Acme, Inc.", status: 0, syncStatus: 1 },
      });
      assert.equal(updated.status, 200);
      likeExamples(updated.body, "PUT", "/connections/{id}");
      validates(updated.body, "PUT", "/connections/{id}");
      const read = (await call("GET", `/connections/${id}`)).body.connection;
      assert.deepEqual(
        [read.externalid, read.name, read.status, read.syncStatus, read.service, read.logoUrl],
        ["johndoe@example.com", "Acme, Inc.", "0", "1", "fooCommerce", toystore.logoUrl],
      );
      assert.deepEqual(refusal(await call("PUT", `/connections/${other.id}`, { connection: { externalid: "johndoe@example.com" } })), [
        422,
        "duplicate /data/attributes/externalid",
      ]);
      assert.deepEqual(refusal(await call("PUT", `/connections/${id}`, { connection: { name: "" } })), [422, "field_missing /data/attributes/name"]);
      const missing = { message: "No Result found for Connection with id 99" };
      assert.deepEqual(status(await call("GET", "/connections/99")), [404, missing]);
      assert.deepEqual(status(await call("PUT", "/connections/99", { connection: { name: "X" } })), [404, missing]);
      assert.deepEqual(status(await call("DELETE", "/connections/99")), [404, missing]);
    });

    it("deletes one (200 {}): it is read and listed no more, and a second delete answers 404", async () => {
      const { id } = (await create()).body.connection;
      assert.deepEqual(status(await call("DELETE", `/connections/${id}`)), [200, {}]);
      assert.equal((await call("GET", `/connections/${id}`)).status, 404);
      assert.equal((await call("DELETE", `/connections/${id}`)).status, 404);
      assert.deepEqual((await call("GET", "/connections")).body, { connections: [], meta: { total: "0" } });
    });
  });

  describe("deal roles", () => {
    it("a fresh account holds the reference's two roles, with their timestamps; new ones get the ids after them", async () => {
      const listed = await call("GET", "/dealRoles");
      likeExamples(listed.body, "GET", "/dealRoles");
      validates(listed.body, "GET", "/dealRoles");
      const withoutLinks = (roles: Array<Record<string, unknown>>) =>
        roles.map(({ links: _links, ...role }) => role).sort((a, b) => Number(a.id) - Number(b.id));
      assert.deepEqual(withoutLinks(listed.body.dealRoles), withoutLinks(examplesOf("GET", "/dealRoles")[0].dealRoles));
      assert.equal(listed.body.meta.total, "2");
      const created = await call("POST", "/dealRoles", { dealRole: { title: "Finance" } });
      assert.equal(created.status, 200);
      likeExamples(created.body, "POST", "/dealRoles");
      validates(created.body, "POST", "/dealRoles");
      assert.deepEqual([created.body.dealRole.id, created.body.dealRole.title], ["3", "Finance"]);
      assert.equal(created.body.dealRole.links.contactDeals, `${h.emulator.crmUrl}/api/3/dealRoles/3/contactDeals`);
      assert.deepEqual(status(await call("GET", "/dealRoles/3/contactDeals")), [200, { contactDeals: [] }]);
    });

    it("takes the title under dealRole or, as the reference's request schema shows it, at the top; lists by search", async () => {
      await call("POST", "/dealRoles", { dealRole: { title: "Finance" } });
      const topLevel = await call("POST", "/dealRoles", { title: "Legal" });
      assert.deepEqual([topLevel.status, topLevel.body.dealRole.title, topLevel.body.dealRole.id], [200, "Legal", "4"]);
      const titles = async (query: string) => (await call("GET", `/dealRoles?${query}`)).body.dealRoles.map((r: { title: string }) => r.title);
      assert.deepEqual(await titles("search=fin"), ["Finance"]);
      assert.deepEqual(await titles("search=MAKER"), ["Decision Maker"]);
      assert.deepEqual(await titles("limit=2&offset=2"), ["Finance", "Legal"]);
    });

    it("refuses a missing title and a title held already, case aside", async () => {
      assert.deepEqual(refusal(await call("POST", "/dealRoles", { dealRole: {} })), [422, "field_missing /data/attributes/title"]);
      assert.deepEqual(refusal(await call("POST", "/dealRoles", {})), [422, "field_missing /data/attributes/title"]);
      assert.deepEqual(refusal(await call("POST", "/dealRoles", { dealRole: { title: "contributor" } })), [422, "duplicate /data/attributes/title"]);
      assert.equal((await call("GET", "/dealRoles")).body.meta.total, "2");
    });

    it("deletes one (200 {}), built-in or not; a second delete answers 404; a reset brings the built-ins back", async () => {
      const { id } = (await call("POST", "/dealRoles", { dealRole: { title: "Finance" } })).body.dealRole;
      assert.deepEqual(status(await call("DELETE", `/dealRoles/${id}`)), [200, {}]);
      assert.deepEqual(status(await call("DELETE", `/dealRoles/${id}`)), [404, { message: `No Result found for DealRole with id ${id}` }]);
      assert.deepEqual(status(await call("DELETE", "/dealRoles/1")), [200, {}]);
      assert.deepEqual(
        (await call("GET", "/dealRoles")).body.dealRoles.map((r: { id: string }) => r.id),
        ["2"],
      );
      await h.api("POST", "/__emulator/reset");
      assert.equal((await call("GET", "/dealRoles")).body.meta.total, "2");
    });
  });

  describe("task outcomes", () => {
    const interested = { title: "Interested", sentiment: "Positive" };
    const create = (taskOutcome: Record<string, unknown> = interested) => call("POST", "/taskOutcomes", { taskOutcome });

    it("a fresh account has none; a create answers as the reference's example, a read and the list the whole outcome", async () => {
      assert.deepEqual((await call("GET", "/taskOutcomes")).body, { taskOutcomes: [], meta: { total: "0" } });
      const created = await create();
      assert.equal(created.status, 200);
      likeExamples(created.body, "POST", "/taskOutcomes");
      validates(created.body, "POST", "/taskOutcomes");
      const { links, ...answered } = created.body.taskOutcome;
      assert.deepEqual(answered, { title: "Interested", sentiment: "POSITIVE", created_by: "1", disabled: "", id: "1" });
      assert.deepEqual(Object.keys(links), ["tasktypeOutcomeRels", "dealTasks"]);

      const read = await call("GET", "/taskOutcomes/1");
      likeExamples(read.body, "GET", "/taskOutcomes/{id}");
      validates(read.body, "GET", "/taskOutcomes/{id}");
      assert.deepEqual([read.body.taskOutcome.disabled, read.body.taskOutcome.dealTasktype_ids, read.body.taskOutcome.updated_by], ["0", [], "1"]);
      const listed = await call("GET", "/taskOutcomes");
      likeExamples(listed.body, "GET", "/taskOutcomes");
      validates(listed.body, "GET", "/taskOutcomes");
      assert.deepEqual(listed.body.taskOutcomes, [read.body.taskOutcome]);
      assert.deepEqual(status(await call("GET", "/taskOutcomes/1/dealTasks")), [200, { dealTasks: [] }]);
      assert.equal((await create({ title: "Parked", sentiment: "neutral", disabled: 1 })).body.taskOutcome.disabled, "1");
    });

    it("refuses a missing title, a title held already and a sentiment out of three, all at once, as the reference's 422s", async () => {
      const [missing, taken] = examplesOf("POST", "/taskOutcomes", 422);
      assert.deepEqual(status(await call("POST", "/taskOutcomes", {})), [422, missing]);
      assert.deepEqual(status(await create({ title: " ", sentiment: "Happy" })), [422, missing]);
      await create();
      assert.deepEqual(status(await create({ title: "INTERESTED", sentiment: "Unsure" })), [422, taken]);
      assert.deepEqual(refusal(await create({ title: "interested", sentiment: "Negative" })), [422, "field_invalid /data/attributes/title"]);
      assert.equal((await call("GET", "/taskOutcomes")).body.meta.total, "1");
    });

    it("lists by filters[sentiment], 1 negative, 2 neutral, 3 positive", async () => {
      await create();
      await create({ title: "Not Interested", sentiment: "Negative" });
      await create({ title: "Left a voicemail", sentiment: "Neutral" });
      const titles = async (query: string) => (await call("GET", `/taskOutcomes?${query}`)).body.taskOutcomes.map((o: { title: string }) => o.title);
      assert.deepEqual(await titles("filters[sentiment]=1"), ["Not Interested"]);
      assert.deepEqual(await titles("filters[sentiment]=2"), ["Left a voicemail"]);
      assert.deepEqual(await titles("filters[sentiment]=3"), ["Interested"]);
      assert.deepEqual(await titles("limit=1&offset=2"), ["Left a voicemail"]);
    });

    it("updates at /taskOutcomes/{id}, as the reference's (misspelled /taskOutccomes/{id}) update answers; refuses as the create does", async () => {
      await create();
      await create({ title: "Not Interested", sentiment: "Negative" });
      const updated = await call("PUT", "/taskOutcomes/1", { taskOutcome: { sentiment: "Neutral" } });
      assert.equal(updated.status, 200);
      likeExamples(updated.body, "PUT", "/taskOutcomes/{id}");
      validates(updated.body, "PUT", "/taskOutcomes/{id}");
      assert.equal(updated.body.taskOutcome.dealTasktype_ids, undefined);
      const read = (await call("GET", "/taskOutcomes/1")).body.taskOutcome;
      assert.deepEqual([read.title, read.sentiment], ["Interested", "NEUTRAL"]);
      assert.deepEqual(refusal(await call("PUT", "/taskOutcomes/1", { taskOutcome: { title: "not interested" } })), [
        422,
        "field_invalid /data/attributes/title",
      ]);
      assert.deepEqual(refusal(await call("PUT", "/taskOutcomes/1", { taskOutcome: { sentiment: "Meh" } })), [422, "field_invalid /data/attributes/sentiment"]);
      assert.equal((await call("PUT", "/taskOutcomes/1", { taskOutcome: { disabled: "1" } })).body.taskOutcome.disabled, "1");
      assert.equal((await call("GET", "/taskOutcomes/1")).body.taskOutcome.sentiment, "NEUTRAL");
      assert.equal((await call("PUT", "/taskOutccomes/1", { taskOutcome: { sentiment: "Positive" } })).status, 404);
    });

    it("answers an unknown id 404 as the reference; deletes one (200 {}) with its task-type relations", async () => {
      assert.deepEqual(status(await call("GET", "/taskOutcomes/111")), [404, examplesOf("GET", "/taskOutcomes/{id}", 404)[0]]);
      assert.deepEqual(status(await call("PUT", "/taskOutcomes/111", { taskOutcome: { title: "X" } })), [
        404,
        examplesOf("DELETE", "/taskOutcomes/{id}", 404)[0],
      ]);
      assert.deepEqual(status(await call("DELETE", "/taskOutcomes/111")), [404, examplesOf("DELETE", "/taskOutcomes/{id}", 404)[0]]);
      await create();
      await call("POST", "/tasktypeOutcomeRels", { tasktypeOutcomeRel: { tasktype_id: 1, outcome_id: 1 } });
      assert.deepEqual(status(await call("DELETE", "/taskOutcomes/1")), [200, {}]);
      assert.equal((await call("GET", "/taskOutcomes/1")).status, 404);
      assert.equal((await call("GET", "/tasktypeOutcomeRels/1")).status, 404);
      assert.equal((await call("DELETE", "/taskOutcomes/1")).status, 404);
    });
  });

  describe("task types' outcomes", () => {
    /** Outcomes 1 (Interested) and 2 (Not Interested). */
    async function outcomes() {
      await call("POST", "/taskOutcomes", { taskOutcome: { title: "Interested", sentiment: "Positive" } });
      await call("POST", "/taskOutcomes", { taskOutcome: { title: "Not Interested", sentiment: "Negative" } });
    }
    const relate = (tasktypeOutcomeRel: Record<string, unknown>) => call("POST", "/tasktypeOutcomeRels", { tasktypeOutcomeRel });

    it("relates a task type to an outcome (200 {tasktypeOutcomeRel}, as the reference's read shows one), reads it back and lists it", async () => {
      await outcomes();
      const created = await relate({ tasktype_id: 1, outcome_id: "1" });
      assert.equal(created.status, 200);
      likeExamples(created.body, "GET", "/tasktypeOutcomeRels/{id}");
      validates(created.body, "GET", "/tasktypeOutcomeRels/{id}");
      const rel = created.body.tasktypeOutcomeRel;
      assert.deepEqual(
        [rel.id, rel.tasktype_id, rel.outcome_id, rel.tasktype, rel.outcome, rel.display_order, rel.updated_by, rel.created_by, rel.createdBy],
        ["1", "1", "1", "1", "1", "0", null, "1", "1"],
      );
      assert.match(rel.updated_utc_timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // Taken also as tasktype and outcome; ordered after the highest held.
      assert.equal((await relate({ tasktype: 2, outcome: 1 })).body.tasktypeOutcomeRel.display_order, "1");
      assert.equal((await relate({ tasktype_id: 1, outcome_id: 2, display_order: 7 })).body.tasktypeOutcomeRel.display_order, "7");

      const read = await call("GET", "/tasktypeOutcomeRels/1");
      likeExamples(read.body, "GET", "/tasktypeOutcomeRels/{id}");
      assert.deepEqual(read.body, created.body);
      const listed = await call("GET", "/tasktypeOutcomeRels");
      likeExamples(listed.body, "GET", "/tasktypeOutcomeRels");
      validates(listed.body, "GET", "/tasktypeOutcomeRels");
      assert.deepEqual([listed.body.tasktypeOutcomeRels.length, listed.body.meta.total], [3, "3"]);
      assert.deepEqual(
        (await call("GET", "/tasktypeOutcomeRels?limit=1&offset=1")).body.tasktypeOutcomeRels.map((r: { id: string }) => r.id),
        ["2"],
      );

      // The outcome names the task types that offer it, and its link and the relation's lead to them.
      assert.deepEqual((await call("GET", "/taskOutcomes/1")).body.taskOutcome.dealTasktype_ids, ["1", "2"]);
      assert.deepEqual(
        (await call("GET", "/taskOutcomes/1/tasktypeOutcomeRels")).body.tasktypeOutcomeRels.map((r: { id: string }) => r.id),
        ["1", "2"],
      );
      assert.equal((await call("GET", "/tasktypeOutcomeRels/1/tasktype")).body.dealTasktype.title, "Call");
      assert.equal((await call("GET", "/tasktypeOutcomeRels/1/outcome")).body.taskOutcome.title, "Interested");
      assert.equal((await call("GET", "/tasktypeOutcomeRels/1/createdBy")).body.user.username, "admin");
    });

    it("refuses a missing or unknown task type or outcome, a pair held already and an order that is no whole number", async () => {
      await outcomes();
      assert.deepEqual(refusal(await relate({ outcome_id: 1 })), [422, "field_missing /data/attributes/tasktype_id"]);
      assert.deepEqual(refusal(await relate({ tasktype_id: 1 })), [422, "field_missing /data/attributes/outcome_id"]);
      assert.deepEqual(refusal(await relate({ tasktype_id: 99, outcome_id: 1 })), [422, "field_invalid /data/attributes/tasktype_id"]);
      assert.deepEqual(refusal(await relate({ tasktype_id: 1, outcome_id: 99 })), [422, "field_invalid /data/attributes/outcome_id"]);
      assert.deepEqual(refusal(await relate({ tasktype_id: 1, outcome_id: 1, display_order: "first" })), [422, "field_invalid /data/attributes/display_order"]);
      await relate({ tasktype_id: 1, outcome_id: 1 });
      assert.deepEqual(refusal(await relate({ tasktype: "1", outcome: "1" })), [422, "duplicate /data/attributes/outcome_id"]);
      assert.equal((await call("GET", "/tasktypeOutcomeRels")).body.meta.total, "1");
    });

    it("updates what is sent, as the update's author; refuses a pair held already; unknown ids answer the reference's 404", async () => {
      await outcomes();
      await relate({ tasktype_id: 1, outcome_id: 1 });
      await relate({ tasktype_id: 1, outcome_id: 2 });
      const updated = await call("PUT", "/tasktypeOutcomeRels/1", { tasktypeOutcomeRel: { display_order: 5 } });
      assert.equal(updated.status, 200);
      likeExamples(updated.body, "GET", "/tasktypeOutcomeRels/{id}");
      assert.deepEqual([updated.body.tasktypeOutcomeRel.display_order, updated.body.tasktypeOutcomeRel.updated_by], ["5", "1"]);
      assert.deepEqual((await call("GET", "/tasktypeOutcomeRels/1")).body, updated.body);
      const moved = await call("PUT", "/tasktypeOutcomeRels/1", { tasktypeOutcomeRel: { tasktype_id: 3 } });
      assert.deepEqual([moved.body.tasktypeOutcomeRel.tasktype_id, moved.body.tasktypeOutcomeRel.outcome_id], ["3", "1"]);
      assert.deepEqual(refusal(await call("PUT", "/tasktypeOutcomeRels/2", { tasktypeOutcomeRel: { tasktype_id: 3, outcome_id: 1 } })), [
        422,
        "duplicate /data/attributes/outcome_id",
      ]);
      const [missing] = examplesOf("GET", "/tasktypeOutcomeRels/{id}", 404);
      assert.deepEqual(status(await call("GET", "/tasktypeOutcomeRels/111")), [404, missing]);
      assert.deepEqual(status(await call("PUT", "/tasktypeOutcomeRels/111", { tasktypeOutcomeRel: { display_order: 1 } })), [404, missing]);
    });

    it("deletes one (200 {}), as the reference; a deleted task type takes its relations with it", async () => {
      await outcomes();
      await relate({ tasktype_id: 1, outcome_id: 1 });
      await relate({ tasktype_id: 2, outcome_id: 1 });
      assert.deepEqual(status(await call("DELETE", "/tasktypeOutcomeRels/1")), [200, {}]);
      const [missing] = examplesOf("DELETE", "/tasktypeOutcomeRels/{id}", 404);
      assert.deepEqual(status(await call("GET", "/tasktypeOutcomeRels/1")), [404, { message: "No Result found for TasktypeOutcomeRel with id 1" }]);
      assert.deepEqual(status(await call("DELETE", "/tasktypeOutcomeRels/111")), [404, missing]);
      assert.equal((await call("DELETE", "/dealTasktypes/2")).status, 200);
      assert.deepEqual((await call("GET", "/tasktypeOutcomeRels")).body.tasktypeOutcomeRels, []);
      assert.deepEqual((await call("GET", "/taskOutcomes/1")).body.taskOutcome.dealTasktype_ids, []);
    });
  });

  describe("custom fields in field groups", () => {
    const add = (groupMember: Record<string, unknown>) => call("POST", "/groupMembers", { groupMember });

    it("adds a field to group 1 (numbers, as the reference's example), appending when ordernum is null; reads it back by the member's id", async () => {
      const created = await add({ rel_id: "10", ordernum: null, group_id: "1" });
      assert.equal(created.status, 200);
      likeExamples(created.body, "POST", "/groupMembers");
      validates(created.body, "POST", "/groupMembers");
      const { links, ...member } = created.body.groupMember;
      assert.deepEqual(member, { id: 1, group_id: 1, rel_id: 10, ordernum: 1, created_by: 1, updated_by: 1 });
      assert.equal(links.groupDefinition, `${h.emulator.crmUrl}/api/3/groupDefinitions/1`);
      assert.deepEqual(status(await call("GET", "/groupDefinitions/1")), [200, { groupDefinition: { id: 1 } }]);
      assert.equal((await add({ rel_id: 11, group_id: 1 })).body.groupMember.ordernum, 2);
      assert.equal((await add({ rel_id: 12, group_id: 1, ordernum: 9 })).body.groupMember.ordernum, 9);
      assert.equal((await add({ rel_id: 13, group_id: 1, ordernum: "" })).body.groupMember.ordernum, 10);

      const read = await call("GET", "/groupMembers/1");
      likeExamples(read.body, "GET", "/groupMembers/{groupID}");
      validates(read.body, "GET", "/groupMembers/{groupID}");
      assert.deepEqual(read.body, { groupMember: { id: 1, group_id: 1, rel_id: 10, ordernum: 1, links } });
    });

    it("refuses as the reference: a blank rel_id 403, an unknown group 404; a missing group, a field there already, an unknown member", async () => {
      const [blank] = examplesOf("POST", "/groupMembers", 403);
      assert.deepEqual(status(await add({ group_id: 1 })), [403, blank]);
      assert.deepEqual(status(await add({ rel_id: "", group_id: 1 })), [403, blank]);
      assert.deepEqual(status(await add({ rel_id: 10, group_id: 94 })), [404, examplesOf("POST", "/groupMembers", 404)[0]]);
      assert.deepEqual(refusal(await add({ rel_id: 10 })), [422, "field_missing /data/attributes/group_id"]);
      assert.deepEqual(refusal(await add({ rel_id: "ten", group_id: 1 })), [422, "field_invalid /data/attributes/rel_id"]);
      assert.deepEqual(refusal(await add({ rel_id: 10, group_id: 1, ordernum: -1 })), [422, "field_invalid /data/attributes/ordernum"]);
      await add({ rel_id: 10, group_id: 1 });
      assert.deepEqual(refusal(await add({ rel_id: "10", group_id: "1" })), [422, "duplicate /data/attributes/rel_id"]);
      const [unknown] = examplesOf("GET", "/groupMembers/{groupID}", 404);
      assert.deepEqual(status(await call("GET", "/groupMembers/99")), [404, unknown]);
      assert.deepEqual(status(await call("PUT", "/groupMembers/99", { groupMember: { ordernum: 1 } })), [404, unknown]);
      assert.deepEqual(status(await call("DELETE", "/groupMembers/99")), [404, examplesOf("DELETE", "/groupMembers/{groupID}", 404)[0]]);
      assert.deepEqual(status(await call("GET", "/groupDefinitions/94")), [404, examplesOf("POST", "/groupMembers", 404)[0]]);
    });

    it("updates what is sent at /groupMembers/{groupId}, keeping the rest; refuses as the create does", async () => {
      await add({ rel_id: 10, group_id: 1 });
      await add({ rel_id: 11, group_id: 1 });
      const updated = await call("PUT", "/groupMembers/1", { groupMember: { ordernum: 3 } });
      assert.equal(updated.status, 200);
      likeExamples(updated.body, "PUT", "/groupMembers/{groupId}");
      validates(updated.body, "PUT", "/groupMembers/{groupId}");
      const { links: _links, ...member } = updated.body.groupMember;
      assert.deepEqual(member, { id: 1, group_id: 1, rel_id: 10, ordernum: 3, created_by: 1, updated_by: 1 });
      assert.equal((await call("GET", "/groupMembers/1")).body.groupMember.ordernum, 3);
      assert.equal((await call("PUT", "/groupMembers/1", { groupMember: { rel_id: 12, ordernum: null } })).body.groupMember.ordernum, 3);
      assert.equal((await call("GET", "/groupMembers/1")).body.groupMember.rel_id, 12);
      assert.deepEqual(status(await call("PUT", "/groupMembers/1", { groupMember: { rel_id: "" } })), [
        403,
        examplesOf("PUT", "/groupMembers/{groupId}", 403)[0],
      ]);
      assert.deepEqual(status(await call("PUT", "/groupMembers/1", { groupMember: { group_id: 94 } })), [
        404,
        examplesOf("PUT", "/groupMembers/{groupId}", 404)[0],
      ]);
      assert.deepEqual(refusal(await call("PUT", "/groupMembers/2", { groupMember: { rel_id: 12 } })), [422, "duplicate /data/attributes/rel_id"]);
      assert.equal((await call("GET", "/groupMembers/1")).body.groupMember.rel_id, 12);
    });

    it("deletes one (200 {}): read no more, a second delete 404", async () => {
      await add({ rel_id: 10, group_id: 1 });
      assert.deepEqual(status(await call("DELETE", "/groupMembers/1")), [200, {}]);
      assert.equal((await call("GET", "/groupMembers/1")).status, 404);
      assert.equal((await call("DELETE", "/groupMembers/1")).status, 404);
      // The field can go into the group again, at its end.
      assert.equal((await add({ rel_id: 10, group_id: 1 })).body.groupMember.ordernum, 1);
    });
  });

  describe("account settings", () => {
    it("updates config 6 (the reference's) to the value sent, as the reference's answer; the rest stays; the user's configs link lists it", async () => {
      const updated = await call("PUT", "/configs/6", { config: { val: 50, keyname: "other", userid: "2" } });
      assert.equal(updated.status, 200);
      likeExamples(updated.body, "PUT", "/configs/{id}");
      validates(updated.body, "PUT", "/configs/{id}");
      const { links, cdate, udate, ...config } = updated.body.config;
      const { links: _links, cdate: exampleCdate, udate: _udate, ...example } = examplesOf("PUT", "/configs/{id}")[0].config;
      assert.deepEqual(config, { ...example, val: "50" });
      assert.equal(cdate, exampleCdate);
      assert.ok(udate > cdate, udate);
      assert.deepEqual(Object.keys(links), ["owner"]);
      assert.equal((await call("GET", "/configs/6/owner")).body.user.username, "admin");
      const listed = await call("GET", "/users/1/configs");
      assert.deepEqual(listed.body, { configs: [updated.body.config] });
      assert.equal((await call("PUT", "/configs/6", { config: {} })).body.config.val, "50");
    });

    it("answers an unknown id as the reference's 404; a reset brings the value back", async () => {
      assert.deepEqual(status(await call("PUT", "/configs/100", { config: { val: "5" } })), [404, examplesOf("PUT", "/configs/{id}", 404)[0]]);
      await call("PUT", "/configs/6", { config: { val: "50" } });
      await h.api("POST", "/__emulator/reset");
      assert.equal((await call("GET", "/users/1/configs")).body.configs[0].val, "20");
      assert.deepEqual((await call("GET", "/users/2/configs")).status, 404);
    });
  });
});
