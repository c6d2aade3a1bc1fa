import assert from "node:assert/strict";
import { startHarness, type Harness } from "./harness";

const SUBSCRIPTIONS = "6449c3f3-b68d-46d1-850b-c8aea998ce1b";

describe("CRM custom objects", () => {
  let h: Harness;
  before(async () => (h = await startHarness()));
  after(() => h.close());
  beforeEach(() => h.api("POST", "/__emulator/reset"));

  /** External ids of the subscription records a query answers, in order. */
  const subscriptions = async (query: string): Promise<string[]> => {
    const reply = await h.api("GET", `/api/3/customObjects/records/${SUBSCRIPTIONS}?${query}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.records.map((r: { externalId: string }) => r.externalId);
  };

  describe("schemas", () => {
    it("lists the seeded schemas with numeric meta and orders by labels.singular or createdTimestamp", async () => {
      const list = await h.api("GET", "/api/3/customObjects/schemas");
      assert.deepEqual(list.body.meta, { total: 2, count: 2, limit: 20, offset: 0 });
      const labels = async (order: string) =>
        (await h.api("GET", `/api/3/customObjects/schemas?${order}`)).body.schemas.map((s: { labels: { singular: string } }) => s.labels.singular);
      assert.deepEqual(await labels("orders[labels.singular]=ASC"), ["Subscription", "Support Ticket"]);
      assert.deepEqual(await labels("orders[labels.singular]=DESC"), ["Support Ticket", "Subscription"]);
      assert.deepEqual(await labels("orders[createdTimestamp]=DESC"), ["Subscription", "Support Ticket"]);
      assert.deepEqual(await labels("filters[slug]=support-ticket"), ["Support Ticket"]);
    });

    it("filters on a relationship's members: filters[relationships.id] and filters[relationships.namespace][eq]", async () => {
      const labels = async (query: string) =>
        (await h.api("GET", `/api/3/customObjects/schemas?${query}`)).body.schemas.map((s: { labels: { singular: string } }) => s.labels.singular);
      assert.deepEqual(await labels("filters[relationships.id][eq]=primary-contact"), ["Subscription"]);
      assert.deepEqual(await labels("filters[relationships.id]=account"), ["Subscription", "Support Ticket"]);
      assert.deepEqual(await labels("filters[relationships.namespace][eq]=deals"), []);
    });

    it("GET one answers {schema}; unknown ids answer 404 {message: Not Found}", async () => {
      const schema = (await h.api("GET", `/api/3/customObjects/schemas/${SUBSCRIPTIONS}`)).body.schema;
      assert.equal(schema.slug, "subscription");
      assert.deepEqual(
        schema.fields.map((f: { id: string }) => f.id),
        ["plan", "seats", "renewal-date", "notes"],
      );
      assert.deepEqual((await h.api("GET", "/api/3/customObjects/schemas/nope")).body, { message: "Not Found" });
    });

    it("POST creates a schema with 201; a repeated slug or missing labels answer 422", async () => {
      const schema = {
        slug: "machine",
        labels: { singular: "Machine", plural: "Machines" },
        fields: [{ id: "serial", labels: { singular: "Serial", plural: "Serials" }, type: "text" }],
        relationships: [{ id: "account", labels: { singular: "Account", plural: "Accounts" }, namespace: "accounts", hasMany: false }],
      };
      const created = await h.api("POST", "/api/3/customObjects/schemas", { schema });
      assert.equal(created.status, 201);
      assert.match(created.body.schema.id, /^[0-9a-f-]{36}$/);
      const again = await h.api("POST", "/api/3/customObjects/schemas", { schema });
      assert.equal(again.status, 422);
      assert.equal(again.body.errors[0].detail, "Schema slug must be unique");
      const unlabeled = await h.api("POST", "/api/3/customObjects/schemas", { schema: { ...schema, slug: "other", fields: [{ id: "x", type: "text" }] } });
      assert.equal(unlabeled.body.errors[0].source.value, "/data/attributes/schema/fields/labels");
    });

    it("PUT changes the members given and adds fields and relationships by new ids, removing none; a taken slug is 422, an unknown schema 404", async () => {
      const path = `/api/3/customObjects/schemas/${SUBSCRIPTIONS}`;
      const seats = { id: "seats", labels: { singular: "Licence", plural: "Licences" }, type: "number", isRequired: true };
      const added = { id: "region", labels: { singular: "Region", plural: "Regions" }, type: "dropdown", options: [{ value: "EMEA" }] };
      const reply = await h.api("PUT", path, {
        schema: {
          slug: "plan",
          description: "Plans",
          fields: [seats, added],
          relationships: [{ id: "deal", labels: { singular: "Deal", plural: "Deals" }, namespace: "deals" }],
        },
      });
      assert.equal(reply.status, 200);
      const { schema } = reply.body;
      assert.deepEqual([schema.slug, schema.description, schema.labels.singular], ["plan", "Plans", "Subscription"]);
      assert.deepEqual(
        schema.fields.map((f: { id: string }) => f.id),
        ["plan", "seats", "renewal-date", "notes", "region"],
      );
      assert.deepEqual([schema.fields[1].labels.singular, schema.fields[1].required], ["Licence", true]);
      assert.match(schema.fields[4].options[0].id, /^[0-9a-f-]{36}$/);
      assert.deepEqual(
        schema.relationships.map((r: { id: string }) => r.id),
        ["primary-contact", "account", "deal"],
      );
      const taken = await h.api("PUT", path, { schema: { slug: "support-ticket" } });
      assert.deepEqual([taken.status, taken.body.errors[0].detail], [422, "Schema slug must be unique"]);
      assert.deepEqual(await h.api("PUT", "/api/3/customObjects/schemas/nope", { schema: {} }).then((r) => [r.status, r.body]), [
        404,
        { message: "Not Found" },
      ]);
    });

    it("a field's DELETE answers 202, marks the field (shown with showFields=all), drops its values and keeps its id taken", async () => {
      const path = `/api/3/customObjects/schemas/${SUBSCRIPTIONS}`;
      const deleted = await h.api("DELETE", `${path}/fields/seats?showFields=all`);
      assert.equal(deleted.status, 202);
      assert.equal(deleted.body.schema.fields.find((f: { id: string }) => f.id === "seats").status, "marked_for_deletion");
      assert.deepEqual(
        (await h.api("GET", path)).body.schema.fields.map((f: { id: string }) => f.id),
        ["plan", "renewal-date", "notes"],
      );
      assert.equal((await h.api("GET", `${path}?showFields=all`)).body.schema.fields.length, 4);
      assert.deepEqual(await subscriptions("filters[fields.seats][not_blank]"), []);
      const reused = await h.api("PUT", path, { schema: { fields: [{ id: "seats", labels: { singular: "Seats", plural: "Seats" }, type: "text" }] } });
      assert.equal(reused.status, 422);
      assert.equal((await h.api("DELETE", `${path}/fields/seats`)).status, 404);
    });

    it("DELETE answers 200 and takes the schema's records with it; then 404", async () => {
      const path = `/api/3/customObjects/schemas/${SUBSCRIPTIONS}`;
      assert.equal((await h.api("DELETE", path)).status, 200);
      assert.equal((await h.api("GET", path)).status, 404);
      assert.equal((await h.api("GET", `/api/3/customObjects/records/${SUBSCRIPTIONS}`)).status, 404);
      assert.deepEqual(await h.api("DELETE", path).then((r) => [r.status, r.body]), [404, { message: "Not Found" }]);
    });
  });

  describe("records", () => {
    it("lists a schema's records; unknown schemas answer 404", async () => {
      assert.deepEqual(await subscriptions(""), ["sub-1", "sub-2", "sub-3", "sub-4"]);
      assert.equal((await h.api("GET", "/api/3/customObjects/records/nope")).status, 404);
    });

    it("filters on fields with every operator, eq when the operator is omitted", async () => {
      const cases: Array<[string, string[]]> = [
        ["filters[fields.plan]=Pro", ["sub-2", "sub-4"]],
        ["filters[fields.plan][eq]=Basic", ["sub-1"]],
        ["filters[fields.seats][lt]=25", ["sub-1"]],
        ["filters[fields.seats][lte]=25", ["sub-1", "sub-2"]],
        ["filters[fields.seats][gt]=25", ["sub-3"]],
        ["filters[fields.seats][gte]=25", ["sub-2", "sub-3"]],
        ["filters[fields.renewal-date][lt]=2025-01-01", ["sub-3"]],
        ["filters[fields.notes][contains]=account", ["sub-3"]],
        ["filters[fields.notes][contains]=up*candidate", ["sub-2"]],
        ["filters[fields.plan][in]=Basic,Enterprise", ["sub-1", "sub-3"]],
        ["filters[fields.seats][blank]=", ["sub-4"]],
        ["filters[fields.notes][blank]=", ["sub-1", "sub-4"]],
        ["filters[fields.seats][not_blank]=", ["sub-1", "sub-2", "sub-3"]],
      ];
      for (const [query, expected] of cases) assert.deepEqual(await subscriptions(query), expected, query);
    });

    it("filters on root properties and relationships, AND-ing several filters", async () => {
      assert.deepEqual(await subscriptions("filters[externalId]=sub-3"), ["sub-3"]);
      assert.deepEqual(await subscriptions("filters[createdTimestamp][gte]=2024-03-04"), ["sub-3", "sub-4"]);
      assert.deepEqual(await subscriptions("filters[relationships.primary-contact][eq]=11"), ["sub-1", "sub-4"]);
      assert.deepEqual(await subscriptions("filters[relationships.primary-contact]=11&filters[fields.plan]=Pro"), ["sub-4"]);
      assert.deepEqual(await subscriptions("filters[relationships.primary-contact][blank]="), ["sub-3"]);
    });

    it("answers 400 {errors} to an unknown operator", async () => {
      const reply = await h.api("GET", `/api/3/customObjects/records/${SUBSCRIPTIONS}?filters[fields.seats][near]=3`);
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { errors: [{ status: 400, title: "Bad Request" }] });
    });

    it("orders by fields.<id> and createdTimestamp, missing values first, and pages", async () => {
      assert.deepEqual(await subscriptions("orders[fields.seats]=DESC"), ["sub-3", "sub-2", "sub-1", "sub-4"]);
      assert.deepEqual(await subscriptions("orders[fields.seats]=ASC"), ["sub-4", "sub-1", "sub-2", "sub-3"]);
      assert.deepEqual(await subscriptions("orders[createdTimestamp]=DESC&limit=2&offset=1"), ["sub-3", "sub-2"]);
      const meta = (await h.api("GET", `/api/3/customObjects/records/${SUBSCRIPTIONS}?limit=2&offset=1`)).body.meta;
      assert.deepEqual(meta, { total: 4, count: 2, limit: 2, offset: 1 });
    });

    it("POST creates (201) or updates by externalId; GET one and DELETE (202)", async () => {
      const record = {
        externalId: "sub-9",
        fields: [
          { id: "plan", value: "Basic" },
          { id: "seats", value: 3 },
        ],
        relationships: { "primary-contact": [14] },
      };
      const created = await h.api("POST", `/api/3/customObjects/records/${SUBSCRIPTIONS}`, { record });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body.record.relationships, { "primary-contact": ["14"] });
      const updated = await h.api("POST", `/api/3/customObjects/records/${SUBSCRIPTIONS}`, { record: { ...record, fields: [{ id: "plan", value: "Pro" }] } });
      assert.equal(updated.body.record.id, created.body.record.id);
      const path = `/api/3/customObjects/records/${SUBSCRIPTIONS}/${created.body.record.id}`;
      assert.deepEqual((await h.api("GET", path)).body.record.fields, [{ id: "plan", value: "Pro" }]);
      assert.equal((await h.api("POST", `/api/3/customObjects/records/${SUBSCRIPTIONS}`, { record: { fields: [{ id: "colour", value: 1 }] } })).status, 422);
      assert.equal((await h.api("DELETE", path)).status, 202);
      assert.equal((await h.api("GET", path)).status, 404);
    });

    it("holds a record to its schema: a required field missing, or a choice outside a dropdown's options, is the reference's 422", async () => {
      const post = (fields: unknown[]) => h.api("POST", `/api/3/customObjects/records/${SUBSCRIPTIONS}`, { record: { externalId: "sub-10", fields } });
      const outside = await post([{ id: "plan", value: "Platinum" }]);
      assert.deepEqual(
        [outside.status, outside.body.errors[0].detail, outside.body.errors[0].source],
        [422, "plan cannot accept a value that is not defined in the schema.", { type: "pointer", value: "/data/attributes/plan" }],
      );
      const missing = await post([{ id: "seats", value: 3 }]);
      assert.deepEqual([missing.status, missing.body.errors[0].title], [422, 'Invalid value for field "plan"']);
      assert.equal((await subscriptions("filters[externalId]=sub-10")).length, 0);
      assert.equal((await post([{ id: "plan", value: "Enterprise" }])).status, 201);
    });
  });
});
